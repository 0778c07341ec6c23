import { randomUUID } from 'node:crypto';
import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import type { AnnouncedLevel } from '../domain/announcements/usage-thresholds.js';
import type {
  DomainAnnouncedState,
  DomainAnnouncementsRepository,
} from '../operations/ports/domain-announcements-repository.js';

/** One document per tenant (`_id` = tenant id): the mark and what the domain stream was told. */
export const DOMAIN_ANNOUNCEMENTS_COLLECTION = 'domain_announcements';
const MARK_ALL_CHUNK = 500;

interface DomainAnnouncementDocument {
  _id: string;
  pending: boolean;
  token: string;
  markedAt: Date;
  tierCode?: string | null;
  levels?: Record<string, AnnouncedLevel>;
}

export function domainAnnouncementsRepository(db: Db): DomainAnnouncementsRepository {
  const docs: Collection<DomainAnnouncementDocument> = db.collection(DOMAIN_ANNOUNCEMENTS_COLLECTION);
  const markOp = (tenantId: string, now: Date): AnyBulkWriteOperation<DomainAnnouncementDocument> => ({
    updateOne: {
      filter: { _id: tenantId },
      update: { $set: { pending: true, token: randomUUID(), markedAt: now } },
      upsert: true,
    },
  });
  return {
    async ensureIndexes() {
      await docs.createIndex({ pending: 1, markedAt: 1 }, { name: 'pending' });
    },
    async mark(tenantId, now) {
      await docs.bulkWrite([markOp(tenantId, now)]);
    },
    async markAll(now) {
      let marked = 0;
      let chunk: AnyBulkWriteOperation<DomainAnnouncementDocument>[] = [];
      const flush = async () => {
        if (chunk.length > 0) await docs.bulkWrite(chunk, { ordered: false });
        marked += chunk.length;
        chunk = [];
      };
      for (const name of ['usage', 'tier_assignments']) {
        for await (const doc of db.collection<{ _id: string }>(name).find({}, { projection: { _id: 1 } })) {
          chunk.push(markOp(doc._id, now));
          if (chunk.length >= MARK_ALL_CHUNK) await flush();
        }
      }
      await flush();
      return marked;
    },
    async pending(limit) {
      const found = await docs.find({ pending: true }).sort({ markedAt: 1 }).limit(limit).toArray();
      return found.map((doc) => ({ tenantId: doc._id, token: doc.token }));
    },
    async find(tenantId) {
      const doc = await docs.findOne({ _id: tenantId, pending: true });
      return doc ? { tenantId: doc._id, token: doc.token } : null;
    },
    async announced(tenantId): Promise<DomainAnnouncedState> {
      const doc = await docs.findOne({ _id: tenantId });
      return { tierCode: doc?.tierCode ?? null, levels: doc?.levels ?? {} };
    },
    async settle(mark, state) {
      const set = { tierCode: state.tierCode, levels: { ...state.levels } };
      const done = await docs.updateOne(
        { _id: mark.tenantId, token: mark.token },
        { $set: { ...set, pending: false } },
      );
      if (done.matchedCount === 0) await docs.updateOne({ _id: mark.tenantId }, { $set: set });
    },
  };
}
