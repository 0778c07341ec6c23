import type { Collection, Db } from 'mongodb';
import type { ProjectionReader } from '../ports.js';
import { AGGREGATES_COLLECTION, storedProjection, type AggregateDocument } from './aggregate-document.js';

/**
 * The reads' side of the aggregate documents: the projection, the version and the tier of one
 * document, found by `_id`. The summary and its parts are never read here, so a read costs the
 * same whatever the tenant's history.
 */
export function projectionReader(db: Db): ProjectionReader {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  return {
    async read(tenantId) {
      const doc = await aggregates.findOne(
        { _id: tenantId },
        { projection: { projection: 1, version: 1, tier: 1 } },
      );
      return {
        tenantId,
        version: doc?.version ?? 0,
        projection: storedProjection(doc?.projection) ?? null,
        tier: doc?.tier ?? null,
      };
    },
  };
}
