import type { Collection, Db } from 'mongodb';
import type { EventFact } from '../domain/index.js';
import type { RawEventLog } from '../operations/ingest-product-events.js';
import { isDuplicateKey } from './write-helpers.js';

/** The append-only log of applied product events, one document per event (`_id` = event id). */
export const RAW_EVENTS_COLLECTION = 'events';

/** How long raw events are kept by default: long enough to replay a quarter (the longest rule window). */
export const DEFAULT_RAW_EVENT_RETENTION_MS = 180 * 86_400_000;

/** One stored raw event. */
export interface RawEventDocument {
  _id: string;
  tenantId: string;
  type: string;
  occurredAt: string;
  subject: Record<string, string>;
  data: Record<string, string>;
  /** When adoption stored it; retention counts from here. */
  receivedAt: Date;
}

function toDocuments(tenantId: string, facts: readonly EventFact[], receivedAt: Date): RawEventDocument[] {
  return facts.map((f) => ({
    _id: f.id,
    tenantId,
    type: f.type,
    occurredAt: f.occurredAt,
    subject: { ...f.subject },
    data: { ...f.data },
    receivedAt,
  }));
}

// An unordered insertMany reports every duplicate and still inserts the rest.
function onlyDuplicates(error: unknown): boolean {
  if (isDuplicateKey(error)) return true;
  const writeErrors = (error as { writeErrors?: unknown } | null)?.writeErrors;
  const list = Array.isArray(writeErrors) ? writeErrors : writeErrors ? [writeErrors] : [];
  return list.length > 0 && list.every((e) => isDuplicateKey(e));
}

/**
 * The raw events, outside the aggregate: for audit and for replaying a summary if its rules
 * change. Appends are idempotent (the event id is the key), so a group appended again after a
 * crash before its aggregate write stores nothing twice.
 */
export function rawEventsRepository(db: Db): RawEventLog & {
  /** Deletes what the retention lets go (also done by the TTL index on MongoDB). */
  pruneBefore(cutoff: Date): Promise<number>;
  countFor(tenantId: string): Promise<number>;
} {
  const events: Collection<RawEventDocument> = db.collection(RAW_EVENTS_COLLECTION);
  const insert = async (docs: RawEventDocument[]): Promise<void> => {
    if (docs.length === 0) return;
    try {
      await events.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!onlyDuplicates(error)) throw error;
    }
  };
  return {
    append: (tenantId, facts, receivedAt) => insert(toDocuments(tenantId, facts, receivedAt)),
    appendGroups: (groups, receivedAt) =>
      insert(groups.flatMap((g) => toDocuments(g.tenantId, g.facts, receivedAt))),
    async pruneBefore(cutoff) {
      const result = await events.deleteMany({ receivedAt: { $lt: cutoff } });
      return result.deletedCount;
    },
    countFor: (tenantId) => events.countDocuments({ tenantId }),
    async existing(tenantId, ids) {
      if (ids.length === 0) return new Set();
      const found = await events
        .find({ _id: { $in: [...ids] }, tenantId }, { projection: { _id: 1 } })
        .toArray();
      return new Set(found.map((doc) => doc._id));
    },
  };
}
