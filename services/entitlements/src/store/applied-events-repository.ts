import type { Collection, Db } from 'mongodb';
import { MongoBulkWriteError } from 'mongodb';
import type { AppliedEventsStore } from '../operations/usage-batch-ports.js';
import { isDuplicateKey } from './mongo-errors.js';

/**
 * One record per counted event in `applied_events`, `_id` = `<tenantId>:<eventId>` (unique by
 * construction): an append-only history beside the tenant's document, never inside it, pruned
 * by age (`appliedAt`, indexed) by the clean-up job.
 */
interface AppliedEventDocument {
  _id: string;
  tenantId: string;
  appliedAt: Date;
}

export interface AppliedEventsRepository extends AppliedEventsStore {
  ensureIndexes(): Promise<void>;
  /** Forgets records older than `cutoff`; returns how many. */
  pruneBefore(cutoff: Date): Promise<number>;
}

const idOf = (tenantId: string, eventId: string) => `${tenantId}:${eventId}`;

/** The applied-event records over `db`. */
export function appliedEventsRepository(db: Db): AppliedEventsRepository {
  const applied: Collection<AppliedEventDocument> = db.collection('applied_events');
  return {
    async ensureIndexes() {
      await applied.createIndex({ appliedAt: 1 }, { name: 'applied_at' });
    },

    async findApplied(tenantId, eventIds) {
      if (eventIds.length === 0) return new Set();
      const ids = eventIds.map((id) => idOf(tenantId, id));
      const found = await applied.find({ _id: { $in: ids } }, { projection: { _id: 1 } }).toArray();
      const prefix = tenantId.length + 1;
      return new Set(found.map((doc) => doc._id.slice(prefix)));
    },

    async markApplied(tenantId, eventIds, now) {
      if (eventIds.length === 0) return;
      const docs = [...new Set(eventIds)].map((id) => ({
        _id: idOf(tenantId, id),
        tenantId,
        appliedAt: now,
      }));
      try {
        await applied.insertMany(docs, { ordered: false });
      } catch (error) {
        // Recorded before (a redelivery, a replay): the first record stands.
        if (error instanceof MongoBulkWriteError && onlyDuplicates(error)) return;
        if (isDuplicateKey(error)) return;
        throw error;
      }
    },

    async pruneBefore(cutoff) {
      return (await applied.deleteMany({ appliedAt: { $lt: cutoff } })).deletedCount;
    },
  };
}

function onlyDuplicates(error: MongoBulkWriteError): boolean {
  const errors: readonly { code: unknown }[] = Array.isArray(error.writeErrors)
    ? (error.writeErrors as readonly { code: unknown }[])
    : [error.writeErrors as { code: unknown }];
  return errors.length > 0 && errors.every((e) => e.code === 11_000);
}
