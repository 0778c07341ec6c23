import type { Collection, Db, Document } from 'mongodb';
import type { Reservation } from '../domain/index.js';
import type { UsageBatchStore, UsageBatchView } from '../operations/usage-batch-ports.js';
import { planIncrements } from './counter-increments.js';
import { isDuplicateKey } from '@tap/errors';
import { readCounter, type UsageDocument } from './usage-document.js';

// Keys become field names: never a dot or a dollar (the domain validates; this is the backstop).
const FIELD_KEY = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

function fieldKey(value: string): string {
  if (!FIELD_KEY.test(value)) throw new TypeError('unsafe key for a field name');
  return value;
}

/**
 * The batched counter's side of the `usage` collection (one document per tenant, see
 * UsageDocument). Its write is conditioned on `lastSeq`: a second writer (a replica in a
 * rolling-restart overlap) that applied events first makes it match nothing, and the caller
 * folds again from what is stored.
 */
export function usageBatchStore(db: Db): UsageBatchStore {
  const usage: Collection<UsageDocument> = db.collection('usage');
  // The document behind each view handed out, for the guards of its write.
  const readDocs = new WeakMap<UsageBatchView, UsageDocument | null>();
  return {
    async read(tenantId, reservationKeys) {
      const projection: Document = { counters: 1, months: 1, lastSeq: 1, version: 1, recentEventIds: 1 };
      for (const key of reservationKeys) projection[`reservations.${fieldKey(key)}`] = 1;
      const doc = await usage.findOne({ _id: tenantId }, { projection });
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
    },

    async apply(tenantId, view, write, now) {
      const doc = readDocs.get(view) ?? null;
      const { inc, guards } = planIncrements(doc, write.increments);
      // A document written before lastSeq existed has no field: the migration adds it, this is the backstop.
      const fence = view.lastSeq === 0 ? { $in: [0, null] } : view.lastSeq;
      const filter: Document = { _id: tenantId, lastSeq: fence, ...guards };
      const set: Document = { lastSeq: write.lastSeq, recentEventIds: write.recentEventIds, updatedAt: now };
      for (const reservation of write.settled) {
        const key = fieldKey(reservation.idempotencyKey);
        filter[`reservations.${key}.state`] = 'HELD';
        set[`reservations.${key}`] = reservation;
      }
      // Even with nothing to add, the write records lastSeq and the ids: a copy must find them.
      const change: Document = { $set: set, $inc: { ...inc, version: 1 } };
      if (doc === null) {
        try {
          await usage.insertOne({
            _id: tenantId,
            counters: {},
            months: {},
            reservations: {},
            lastSeq: 0,
            version: 0,
            createdAt: now,
            updatedAt: now,
          });
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
        }
      }
      return (await usage.updateOne(filter, change)).matchedCount === 1;
    },
  };
}
