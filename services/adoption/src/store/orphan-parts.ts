import type { Db } from 'mongodb';
import type { OrphanParts } from '../ports.js';
import { AGGREGATES_COLLECTION, type AggregateDocument } from './aggregate-document.js';
import {
  SUMMARY_PARTS_COLLECTION,
  type SummaryPartDocument,
  type SummaryPartsRepository,
} from './summary-parts-repository.js';

/**
 * Finds summary parts no aggregate names and deletes them. Old parts only (the caller's
 * `insertedBefore`): a part is named by the conditional update right after its insert, so one
 * unnamed long after can never be named. Each tenant's aggregate is read once, by `_id`, for the
 * ids it names; deletions go one `_id` at a time (FerretDB v1 scans for `$in`). On FerretDB the
 * `createdAt` filter scans the parts collection: the pass runs hourly, not on a request's path.
 */
export function orphanParts(db: Db, parts: Pick<SummaryPartsRepository, 'remove'>): OrphanParts {
  const stored =
    db.collection<Pick<SummaryPartDocument, '_id' | 'tenantId' | 'createdAt' | 'facts'>>(
      SUMMARY_PARTS_COLLECTION,
    );
  const aggregates = db.collection<AggregateDocument>(AGGREGATES_COLLECTION);
  return {
    async sweep(insertedBefore, limit) {
      const old = await stored
        .find({ createdAt: { $lt: insertedBefore } }, { projection: { _id: 1, tenantId: 1 } })
        .sort({ createdAt: 1 })
        .limit(limit)
        .toArray();
      const byTenant = new Map<string, string[]>();
      for (const part of old) byTenant.set(part.tenantId, [...(byTenant.get(part.tenantId) ?? []), part._id]);
      let deleted = 0;
      for (const [tenantId, ids] of byTenant) {
        const doc = await aggregates.findOne({ _id: tenantId }, { projection: { summaryParts: 1 } });
        const named = new Set((doc?.summaryParts ?? []).map((ref) => ref.id));
        const unnamed = ids.filter((id) => !named.has(id));
        await parts.remove(unnamed.map((id) => ({ id, facts: 0 })));
        deleted += unnamed.length;
      }
      return { looked: old.length, deleted };
    },
  };
}
