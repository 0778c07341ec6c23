import type { Collection, Db, Document, Filter } from 'mongodb';
import type { UsageRepository } from '../operations/ports/usage-repository.js';
import { planIncrements } from './counter-increments.js';
import { isDuplicateKey } from '@tap/errors';
import { counterPath, type UsageDocument } from './usage-document.js';

// Keys become field names: never a dot or a dollar (the domain validates; this is the backstop).
const FIELD_KEY = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

function fieldKey(value: string): string {
  if (!FIELD_KEY.test(value)) throw new TypeError('unsafe key for a field name');
  return value;
}

/**
 * The usage store over `db` (collection `usage`, one UsageDocument per tenant). Every write is one
 * conditional single-document update; `false` means the condition no longer held.
 */
export function usageRepository(db: Db): UsageRepository {
  const usage: Collection<UsageDocument> = db.collection('usage');

  const ensureDocument = async (tenantId: string, now: Date): Promise<boolean> => {
    try {
      const empty = { counters: {}, months: {}, reservations: {}, lastSeq: 0, version: 0 };
      await usage.insertOne({ _id: tenantId, ...empty, createdAt: now, updatedAt: now });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  };

  // Updates never upsert: a conditional upsert that does not match collides on _id instead.
  const update = async (
    tenantId: string,
    filter: Document,
    change: Document,
    now: Date,
  ): Promise<boolean> => {
    const run = () => usage.updateOne({ _id: tenantId, ...filter }, change);
    const first = await run();
    if (first.matchedCount === 1) return true;
    return (await ensureDocument(tenantId, now)) && (await run()).matchedCount === 1;
  };

  return {
    async read(tenantId, focus = {}) {
      const projection: Document = { counters: 1, months: 1, version: 1 };
      if (focus.reservationKey) projection[`reservations.${fieldKey(focus.reservationKey)}`] = 1;
      const doc = await usage.findOne({ _id: tenantId }, { projection });
      return {
        doc,
        reservation: focus.reservationKey ? doc?.reservations?.[focus.reservationKey] : undefined,
      };
    },

    async reserve(tenantId, plan, now) {
      const key = fieldKey(plan.reservation.idempotencyKey);
      const used = `${counterPath(plan.guard.counter, plan.guard.period)}.used`;
      const filter: Document = { [`reservations.${key}`]: { $exists: false } };
      // A counter never written has no `used`, and `$lte` does not match a missing field.
      if (plan.guard.maxUsedBefore !== null) {
        filter['$or'] = [{ [used]: { $exists: false } }, { [used]: { $lte: plan.guard.maxUsedBefore } }];
      }
      const { inc } = planIncrements(null, [plan.delta]);
      return update(
        tenantId,
        filter,
        { $set: { [`reservations.${key}`]: plan.reservation, updatedAt: now }, $inc: { ...inc, version: 1 } },
        now,
      );
    },

    async settleReservation(tenantId, view, transition, now) {
      const key = fieldKey(transition.reservation.idempotencyKey);
      const { inc, guards } = planIncrements(view.doc, transition.deltas);
      const change: Document = {
        $set: { [`reservations.${key}`]: transition.reservation, updatedAt: now },
        $inc: { ...inc, version: 1 },
      };
      const result = await usage.updateOne(
        { _id: tenantId, [`reservations.${key}.state`]: 'HELD', ...guards },
        change,
      );
      return result.matchedCount === 1;
    },

    async adjustSeats(tenantId, delta, maxUsedBefore, now) {
      const used = `${counterPath('MAX_USERS', null)}.used`;
      const filter: Document =
        delta === -1
          ? { [used]: { $gte: 1 } }
          : maxUsedBefore === null
            ? {}
            : { $or: [{ [used]: { $exists: false } }, { [used]: { $lte: maxUsedBefore } }] };
      const change = { $inc: { [used]: delta, version: 1 }, $set: { updatedAt: now } };
      // A release never creates the document: there is nothing to give back.
      if (delta === -1)
        return (await usage.updateOne({ _id: tenantId, ...filter }, change)).matchedCount === 1;
      return update(tenantId, filter, change, now);
    },

    async setSeatCount(tenantId, used, now) {
      await update(
        tenantId,
        {},
        { $set: { [`${counterPath('MAX_USERS', null)}.used`]: used, updatedAt: now }, $inc: { version: 1 } },
        now,
      );
    },

    readForCleanup: (tenantId) => usage.findOne({ _id: tenantId }),

    async prune(tenantId, prune, now) {
      const unset: Record<string, ''> = {};
      for (const key of prune.reservationKeys) unset[`reservations.${fieldKey(key)}`] = '';
      for (const id of prune.eventIds) unset[`appliedEvents.${fieldKey(id)}`] = '';
      for (const period of prune.periods) unset[`months.${fieldKey(period)}`] = '';
      if (Object.keys(unset).length === 0) return false;
      await usage.updateOne(
        { _id: tenantId },
        { $unset: unset, $set: { updatedAt: now }, $inc: { version: 1 } },
      );
      return true;
    },

    async listTenantIds(after, limit) {
      const filter: Filter<UsageDocument> = after === null ? {} : { _id: { $gt: after } };
      const docs = await usage
        .find(filter, { projection: { _id: 1 } })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map((doc) => doc._id);
    },
  };
}
