import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { TierAnnouncementsRepository } from '../operations/ports/tier-announcements-repository.js';

/** One mark per tenant whose tier is still to be announced (`_id` = tenant id). */
export const TIER_ANNOUNCEMENTS_COLLECTION = 'tier_announcements';
/** What catalogue version every tenant's tier was announced under (`_id` = 'catalogue'). */
const ANNOUNCED_CATALOGUE_COLLECTION = 'tier_announced_catalogue';
/** Tenants marked per bulk write of the catalogue migration. */
const MARK_ALL_CHUNK = 500;

interface MarkDocument {
  _id: string;
  token: string;
  markedAt: Date;
}

interface AnnouncedCatalogueDocument {
  _id: 'catalogue';
  version: number;
  updatedAt: Date;
}

/** The `tier.changed` outbox over `db`. */
export function tierAnnouncementsRepository(db: Db): TierAnnouncementsRepository {
  const marks: Collection<MarkDocument> = db.collection(TIER_ANNOUNCEMENTS_COLLECTION);
  const announced: Collection<AnnouncedCatalogueDocument> = db.collection(ANNOUNCED_CATALOGUE_COLLECTION);
  const toPending = (doc: MarkDocument) => ({ tenantId: doc._id, token: doc.token });
  const markMany = async (tenantIds: readonly string[], now: Date) => {
    const operations: AnyBulkWriteOperation<MarkDocument>[] = tenantIds.map((tenantId) => ({
      updateOne: {
        filter: { _id: tenantId },
        update: { $set: { token: randomUUID(), markedAt: now } },
        upsert: true,
      },
    }));
    if (operations.length > 0) await marks.bulkWrite(operations, { ordered: false });
  };
  return {
    mark: (tenantId, now) => markMany([tenantId], now),
    async pending(limit) {
      const docs = await marks.find({}).sort({ markedAt: 1 }).limit(limit).toArray();
      return docs.map(toPending);
    },
    async find(tenantId) {
      const doc = await marks.findOne({ _id: tenantId });
      return doc === null ? null : toPending(doc);
    },
    async clear(pending) {
      await marks.deleteOne({ _id: pending.tenantId, token: pending.token });
    },
    async markAllBelow(catalogueVersion, now) {
      const current = await announced.findOne({ _id: 'catalogue' });
      if (current !== null && current.version >= catalogueVersion) return 0;
      let marked = 0;
      let chunk: string[] = [];
      const assignments = db
        .collection<{ _id: string }>('tier_assignments')
        .find({}, { projection: { _id: 1 } });
      for await (const doc of assignments) {
        chunk.push(doc._id);
        if (chunk.length < MARK_ALL_CHUNK) continue;
        await markMany(chunk, now);
        marked += chunk.length;
        chunk = [];
      }
      await markMany(chunk, now);
      marked += chunk.length;
      await announced.updateOne(
        { _id: 'catalogue' },
        { $set: { version: catalogueVersion, updatedAt: now } },
        { upsert: true },
      );
      return marked;
    },
  };
}
