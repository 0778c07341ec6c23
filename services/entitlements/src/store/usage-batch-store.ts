import type { Collection, Db, Document } from 'mongodb';
import type { Reservation } from '../domain/index.js';
import type { UsageBatchStore, UsageBatchView } from '../operations/usage-batch-ports.js';
import { planIncrements } from './counter-increments.js';
import { isDuplicateKey } from '@tap/errors';
import { afterUpdate, lastWrittenUsage, type LastWrittenUsage } from './last-written-usage.js';
import { readCounter, type UsageDocument } from './usage-document.js';

// Keys become field names: never a dot or a dollar (the domain validates; this is the backstop).
const FIELD_KEY = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

function fieldKey(value: string): string {
  if (!FIELD_KEY.test(value)) throw new TypeError('unsafe key for a field name');
  return value;
}

/**
 * The batched counter's side of the `usage` collection (one document per tenant, see
 * UsageDocument). Its write is conditioned on `lastSeq` and `version`: a second writer (a
 * reserve, the clean-up, a replica in a rolling-restart overlap) that wrote first makes it match
 * nothing, and the caller folds again from what is stored. So a tenant's next batch folds on the
 * document as this writer last wrote it (`lastWrittenUsage`) instead of reading it again: one
 * statement per tenant and batch, and a tenant's first batch is one insert of the whole document.
 */
export function usageBatchStore(db: Db, lastWritten: LastWrittenUsage = lastWrittenUsage()): UsageBatchStore {
  const usage: Collection<UsageDocument> = db.collection('usage');
  // The document behind each view handed out, for the guards of its write.
  const readDocs = new WeakMap<UsageBatchView, UsageDocument | null>();
  const viewOf = (doc: UsageDocument | null, reservationKeys: readonly string[]): UsageBatchView => {
    const reservations = new Map<string, Reservation>();
    for (const key of reservationKeys) {
      const found = doc?.reservations?.[key];
      if (found) reservations.set(key, found);
    }
    const view: UsageBatchView = {
      lastSeq: doc?.lastSeq ?? 0,
      version: doc?.version ?? 0,
      counter: (counter, period) => readCounter(doc, counter, period),
      reservations,
      recentEventIds: doc?.recentEventIds ?? [],
    };
    readDocs.set(view, doc);
    return view;
  };
  return {
    async read(tenantId, reservationKeys) {
      // Remembered documents carry only the reservations this writer set: a batch that names one
      // reads the document.
      const remembered = reservationKeys.length === 0 ? lastWritten.get(tenantId) : undefined;
      if (remembered) return viewOf(remembered, reservationKeys);
      const projection: Document = { counters: 1, months: 1, lastSeq: 1, version: 1, recentEventIds: 1 };
      for (const key of reservationKeys) projection[`reservations.${fieldKey(key)}`] = 1;
      return viewOf(await usage.findOne({ _id: tenantId }, { projection }), reservationKeys);
    },

    async apply(tenantId, view, write, now) {
      const read = readDocs.get(view) ?? null;
      const { inc, guards } = planIncrements(read, write.increments);
      const set: Document = { lastSeq: write.lastSeq, recentEventIds: write.recentEventIds, updatedAt: now };
      if (read === null && write.settled.length === 0) return insertFirst(tenantId, inc, set, now);
      const doc = read ?? (await ensureDocument(tenantId, now));
      // Documents written before lastSeq / version existed have neither: the migration adds them,
      // this is the backstop.
      const fence = (value: number) => (value === 0 ? { $in: [0, null] } : value);
      const filter: Document = {
        _id: tenantId,
        lastSeq: fence(view.lastSeq),
        version: fence(view.version),
        ...guards,
      };
      for (const reservation of write.settled) {
        const key = fieldKey(reservation.idempotencyKey);
        filter[`reservations.${key}.state`] = 'HELD';
        set[`reservations.${key}`] = reservation;
      }
      // Even with nothing to add, the write records lastSeq and the ids: a copy must find them.
      const increments = { ...inc, version: 1 };
      if ((await usage.updateOne(filter, { $set: set, $inc: increments })).matchedCount !== 1) {
        lastWritten.forget(tenantId);
        return false;
      }
      lastWritten.set(tenantId, afterUpdate({ ...doc, version: view.version }, increments, set));
      return true;
    },
  };

  /** A tenant's first write: the whole document in one insert; a duplicate means another writer was first. */
  async function insertFirst(tenantId: string, inc: Document, set: Document, now: Date): Promise<boolean> {
    const doc = afterUpdate(emptyDocument(tenantId, now), { ...inc, version: 1 }, set);
    try {
      await usage.insertOne(doc);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      lastWritten.forget(tenantId);
      return false;
    }
    lastWritten.set(tenantId, doc);
    return true;
  }

  /** The empty document (inserted unless another writer was first) for a write that needs one to update. */
  async function ensureDocument(tenantId: string, now: Date): Promise<UsageDocument> {
    const empty = emptyDocument(tenantId, now);
    try {
      await usage.insertOne(empty);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    return empty;
  }
}

function emptyDocument(tenantId: string, now: Date): UsageDocument {
  return {
    _id: tenantId,
    counters: {},
    months: {},
    reservations: {},
    lastSeq: 0,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
}
