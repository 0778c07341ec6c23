import { randomUUID } from 'node:crypto';
import type { Binary, Collection, Db } from 'mongodb';
import { packJson, unpackJson } from './packed-json.js';
import { slotFactCount, type EventFact, type SummarySlot } from '../domain/index.js';

/** Layers of tenants' summaries that outgrew the aggregate document (docs/adoption-model.md §17). */
export const SUMMARY_PARTS_COLLECTION = 'summary_parts';

/** Facts the process keeps of parts it read (least recently used out first); ~0.5 KB each. */
export const PARTS_CACHE_MAX_FACTS = 200_000;

/** A slot as stored in a part: its facts by id (a fact sits in several slots, stored once). */
interface StoredSlot {
  key: string;
  keep: SummarySlot['keep'];
  n: number;
  expiresAt: number | null;
  ids: string[];
}

/** A part's content: each fact of its slots once (a fact is kept by 4–6 slots: a third of the bytes). */
export interface PartContent {
  facts: EventFact[];
  slots: StoredSlot[];
}

/**
 * One stored layer: immutable once inserted, so any replica may cache it by id for ever. Written
 * `packed`: the content as one deflated JSON value. FerretDB converts and stores a document
 * field by field, so slots as arrays of documents cost many times one packed value to insert and
 * to read, deflate and inflate included (bench/adoption/part-format-probe.mjs compares them); on
 * MongoDB it is simply smaller. Parts written before carry `facts` and `slots` as fields and read
 * the same.
 */
export interface SummaryPartDocument extends Partial<PartContent> {
  _id: string;
  tenantId: string;
  /** deflate-raw of the JSON of PartContent. */
  packed?: Binary;
  createdAt: Date;
}

/** The part's content, whichever shape it was written in; null when it is neither. */
function unpack(doc: SummaryPartDocument): PartContent | null {
  if (doc.packed !== undefined) {
    const content = unpackJson(doc.packed) as PartContent;
    return Array.isArray(content.facts) && Array.isArray(content.slots) ? content : null;
  }
  return doc.facts !== undefined && doc.slots !== undefined ? { facts: doc.facts, slots: doc.slots } : null;
}

/** A part's content: each fact once, its slots as id lists (bench/adoption/part-format-probe.mjs stores it both ways). */
export function encodePartContent(slots: readonly SummarySlot[]): PartContent {
  const facts = new Map<string, EventFact>();
  const stored = slots.map((slot) => {
    for (const fact of slot.facts) facts.set(fact.id, fact);
    return {
      key: slot.key,
      keep: slot.keep,
      n: slot.n,
      expiresAt: slot.expiresAt,
      ids: slot.facts.map((f) => f.id),
    };
  });
  return { facts: [...facts.values()], slots: stored };
}

function decode(doc: SummaryPartDocument): SummarySlot[] | null {
  const content = unpack(doc);
  if (content === null) return null;
  const facts = new Map(content.facts.map((f) => [f.id, f]));
  const slots: SummarySlot[] = [];
  for (const slot of content.slots) {
    const kept = slot.ids.map((id) => facts.get(id));
    if (!kept.every((f): f is EventFact => f !== undefined)) return null;
    slots.push({ key: slot.key, keep: slot.keep, n: slot.n, expiresAt: slot.expiresAt, facts: kept });
  }
  return slots;
}

/** A part as the aggregate refers to it: its id and how many facts it holds (for compaction). */
export interface SummaryPartRef {
  readonly id: string;
  readonly facts: number;
}

export interface SummaryPartsRepository {
  /**
   * The slots of each part, in the order asked; null when one is gone (a rebase replaced it
   * after the document naming it was read: read the document again).
   */
  read(
    tenantId: string,
    refs: readonly SummaryPartRef[],
  ): Promise<readonly (readonly SummarySlot[])[] | null>;
  /** Inserts a new part (an insert is atomic on FerretDB too) and caches it. */
  insert(tenantId: string, slots: readonly SummarySlot[], now: Date): Promise<SummaryPartRef>;
  /** Deletes parts no aggregate refers to any more (after a compaction or a lost write). */
  remove(refs: readonly SummaryPartRef[]): Promise<void>;
  /** `remove` in the background, one deletion at a time; a failure only costs space. */
  discard(refs: readonly SummaryPartRef[]): void;
  /** Resolves once the background deletions asked for so far are done (tests, shutdown). */
  settled(): Promise<void>;
}

/**
 * The summary parts. Reads go through a process-wide cache: parts never change after their
 * insert, so a cached part is never stale and needs no invalidation, whichever replica wrote it.
 * Each part is fetched by `_id` (findOne), the lookup FerretDB answers from its primary key.
 */
export function summaryPartsRepository(
  db: Db,
  maxCachedFacts = PARTS_CACHE_MAX_FACTS,
): SummaryPartsRepository {
  const parts: Collection<SummaryPartDocument> = db.collection(SUMMARY_PARTS_COLLECTION);
  const cache = new Map<string, readonly SummarySlot[]>();
  let cachedFacts = 0;
  const remember = (id: string, slots: readonly SummarySlot[]): void => {
    if (cache.has(id)) return;
    cache.set(id, slots);
    cachedFacts += slotFactCount(slots);
    for (const [oldest, kept] of cache) {
      if (cachedFacts <= maxCachedFacts || oldest === id) break;
      cache.delete(oldest);
      cachedFacts -= slotFactCount(kept);
    }
  };
  const readOne = async (tenantId: string, ref: SummaryPartRef): Promise<readonly SummarySlot[] | null> => {
    const cached = cache.get(ref.id);
    if (cached !== undefined) {
      // Most recently used last, so the eviction above takes the coldest.
      cache.delete(ref.id);
      cache.set(ref.id, cached);
      return cached;
    }
    const doc = await parts.findOne({ _id: ref.id });
    const slots = doc === null || doc.tenantId !== tenantId ? null : decode(doc);
    if (slots === null) return null;
    remember(ref.id, slots);
    return slots;
  };
  // Cached copies stay until the LRU drops them: a read that started before a rebase may still
  // ask for them, and their content never changes.
  const remove = async (refs: readonly SummaryPartRef[]): Promise<void> => {
    // One delete by `_id` each: FerretDB v1 answers `_id: { $in }` by scanning (and parsing)
    // the whole collection of large parts, far slower than one lookup by `_id` each.
    for (const ref of refs) await parts.deleteOne({ _id: ref.id });
  };
  let deletions: Promise<void> = Promise.resolve();
  return {
    remove,
    discard(refs) {
      deletions = deletions.then(() => remove(refs)).catch(() => undefined);
    },
    settled: () => deletions,
    async read(tenantId, refs) {
      const found = await Promise.all(refs.map((ref) => readOne(tenantId, ref)));
      return found.every((slots) => slots !== null) ? found : null;
    },
    async insert(tenantId, slots, now) {
      const id = `${tenantId}:${randomUUID()}`;
      await parts.insertOne({
        _id: id,
        tenantId,
        packed: packJson(encodePartContent(slots)),
        createdAt: now,
      });
      remember(id, slots);
      return { id, facts: slotFactCount(slots) };
    },
  };
}
