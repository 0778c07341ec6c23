import { createHash } from 'node:crypto';
import type { Binary, Collection, Db } from 'mongodb';
import type { EventFact } from '../domain/index.js';
import type { RawEventLog } from '../operations/ingest-product-events.js';
import { packJson } from './packed-json.js';
import { isDuplicateKey } from './write-helpers.js';

/**
 * The append-only log of applied product events: one document per tenant group (a consumer batch
 * writes one per tenant), the group's facts packed. A document per event cost the consumer more
 * than every other write of a group together on FerretDB; one per group costs one small insert.
 */
export const RAW_EVENTS_COLLECTION = 'events';

/** How long raw events are kept by default: long enough to replay a quarter (the longest rule window). */
export const DEFAULT_RAW_EVENT_RETENTION_MS = 180 * 86_400_000;

/** One stored group of raw events. */
export interface RawEventChunkDocument {
  /** `${tenantId}|<hash of the ids>`: the same group appended again is the same document. */
  _id: string;
  tenantId: string;
  /** The event ids, unpacked: the redelivery check looks them up (section 19 of the model). */
  ids: string[];
  /** The facts, packed (`packJson`): only a replay reads them. */
  facts: Binary;
  /** When adoption stored them; retention counts from here. */
  receivedAt: Date;
}

function toChunk(tenantId: string, facts: readonly EventFact[], receivedAt: Date): RawEventChunkDocument {
  const ids = facts.map((f) => f.id);
  const hash = createHash('sha256').update(ids.join('\n')).digest('base64url').slice(0, 22);
  return { _id: `${tenantId}|${hash}`, tenantId, ids, facts: packJson(facts), receivedAt };
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
 * change. Appends are idempotent for the same group (the key is its ids); a group split
 * differently on a redelivery may store an event in two chunks, so a reader deduplicates by id
 * (as every fold does).
 */
export function rawEventsRepository(db: Db): RawEventLog & {
  /** Deletes what the retention lets go (also done by the TTL index on MongoDB). */
  pruneBefore(cutoff: Date): Promise<number>;
  /** Distinct events stored for the tenant (tests: it reads every chunk of the tenant). */
  countFor(tenantId: string): Promise<number>;
} {
  const chunks: Collection<RawEventChunkDocument> = db.collection(RAW_EVENTS_COLLECTION);
  const insert = async (docs: RawEventChunkDocument[]): Promise<void> => {
    if (docs.length === 0) return;
    try {
      await chunks.insertMany(docs, { ordered: false });
    } catch (error) {
      if (!onlyDuplicates(error)) throw error;
    }
  };
  return {
    append: (tenantId, facts, receivedAt) =>
      insert(facts.length === 0 ? [] : [toChunk(tenantId, facts, receivedAt)]),
    appendGroups: (groups, receivedAt) =>
      insert(groups.filter((g) => g.facts.length > 0).map((g) => toChunk(g.tenantId, g.facts, receivedAt))),
    async pruneBefore(cutoff) {
      const result = await chunks.deleteMany({ receivedAt: { $lt: cutoff } });
      return result.deletedCount;
    },
    async countFor(tenantId) {
      const ids = new Set<string>();
      for await (const chunk of chunks.find({ tenantId }, { projection: { ids: 1 } }))
        for (const id of chunk.ids ?? []) ids.add(id);
      return ids.size;
    },
    // The rare path (a redelivery behind the tenant's last sequence and older than its recent
    // ids): on MongoDB the multikey index answers it, on FerretDB it reads the chunks.
    async existing(tenantId, ids) {
      if (ids.length === 0) return new Set();
      const wanted = new Set(ids);
      const found = new Set<string>();
      for await (const chunk of chunks.find({ tenantId, ids: { $in: [...ids] } }, { projection: { ids: 1 } }))
        for (const id of chunk.ids ?? []) if (wanted.has(id)) found.add(id);
      return found;
    },
  };
}
