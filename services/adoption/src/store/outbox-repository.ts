import type { Collection, Db } from 'mongodb';
import { planGeneration, type OutboxEntry, type OutboxRepository } from '../ports.js';
import { AGGREGATES_COLLECTION, type AggregateDocument } from './aggregate-document.js';
import { leaseClaims } from './lease-claims.js';
import { unpackEvents } from './pending-events.js';
import { PLANS_COLLECTION, planId, type PlanDocument } from './plans-repository.js';
import type { TenantWriteLock } from './tenant-write-lock.js';
import { isDuplicateKey } from './write-helpers.js';

/**
 * When the relay should check a completion's event: one small document per completion, so the
 * relay's due query never scans the large aggregate documents (FerretDB v1 scans; MongoDB uses
 * the `due_at` index).
 */
export const OUTBOX_DUE_COLLECTION = 'outbox_due';
/** Leases of completions a relay replica is publishing. */
export const OUTBOX_CLAIMS_COLLECTION = 'outbox_claims';

interface DueDocument {
  /** `<tenantId>:<completionId>` */
  _id: string;
  tenantId: string;
  completionId: string;
  dueAt: Date;
  createdAt: Date;
  /** Set for an event held by a plan document (DuePublication.holder). */
  holder?: string;
}

export type { DuePublication, OutboxEntry, OutboxRepository } from '../ports.js';

/** An outbound event in a document's outbox; not there: published, or its write never landed. */
function pendingEntry(stored: readonly string[] | undefined, eventId: string): OutboxEntry {
  const found = unpackEvents(stored).find((e) => e.event.id === eventId);
  return found === undefined ? { state: 'unwritten' } : { state: 'pending-event', event: found.event };
}

const reminderId = (tenantId: string, completionId: string): string => `${tenantId}:${completionId}`;

/**
 * The outbox of `milestone.completed` events: the marker lives in the aggregate (`outbox`, pushed
 * by the completion's own update), the reminders and claims in collections of their own. The
 * aggregate's update runs under `lock`, shared with the other writers of the tenant's document.
 * Outbound events (rung, band, risk signals, audit entries) use the same reminders and claims;
 * the events themselves live in their document's `pendingEvents` (the aggregate's, or a plan
 * generation's for the audit entry of its create or renewal).
 */
export function outboxRepository(db: Db, lock: TenantWriteLock): OutboxRepository {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  const reminders: Collection<DueDocument> = db.collection(OUTBOX_DUE_COLLECTION);
  const plans: Collection<PlanDocument> = db.collection(PLANS_COLLECTION);
  const claims = leaseClaims(db, OUTBOX_CLAIMS_COLLECTION);
  const forget = async (tenantId: string, completionId: string) => {
    await reminders.deleteOne({ _id: reminderId(tenantId, completionId) });
  };
  return {
    async remind(tenantId, completionId, dueAt, now, holder) {
      try {
        await reminders.insertOne({
          _id: reminderId(tenantId, completionId),
          tenantId,
          completionId,
          dueAt,
          createdAt: now,
          ...(holder === undefined ? {} : { holder }),
        });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async due(now, limit) {
      const docs = await reminders
        .find({ dueAt: { $lte: now } })
        .sort({ dueAt: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({
        tenantId: d.tenantId,
        completionId: d.completionId,
        dueAt: d.dueAt,
        createdAt: d.createdAt,
        ...(d.holder === undefined ? {} : { holder: d.holder }),
      }));
    },
    claim: (due, now, leaseMs) =>
      claims.claim(reminderId(due.tenantId, due.completionId), due.dueAt, now, leaseMs),
    release: (claim) => claims.release(claim),
    async entry(tenantId, completionId, holder) {
      const generation = planGeneration(holder);
      if (generation !== undefined) {
        const plan = await plans.findOne(
          { _id: planId(tenantId, generation) },
          { projection: { pendingEvents: 1 } },
        );
        return pendingEntry(plan?.pendingEvents, completionId);
      }
      const doc = await aggregates.findOne(
        { _id: tenantId },
        { projection: { manualCompletions: 1, detectedCompletions: 1, outbox: 1, pendingEvents: 1 } },
      );
      const completion = [...(doc?.manualCompletions ?? []), ...(doc?.detectedCompletions ?? [])].find(
        (c) => c.id === completionId,
      );
      if (completion === undefined) return pendingEntry(doc?.pendingEvents, completionId);
      return (doc?.outbox ?? []).includes(completionId)
        ? { state: 'unpublished', completion }
        : { state: 'published' };
    },
    async markPublished(tenantId, completionId) {
      // $pullAll with a plain value: FerretDB v1 ignores a $pull with a condition such as $in.
      await lock.run(tenantId, () =>
        aggregates.updateOne({ _id: tenantId }, { $pullAll: { outbox: [completionId] } }),
      );
      await forget(tenantId, completionId);
    },
    async markEventPublished(tenantId, event, holder) {
      // The same JSON the write stored: packEvents is JSON.stringify of the same object.
      const raw = JSON.stringify(event);
      const generation = planGeneration(holder);
      if (generation !== undefined)
        await plans.updateOne({ _id: planId(tenantId, generation) }, { $pullAll: { pendingEvents: [raw] } });
      else
        await lock.run(tenantId, () =>
          aggregates.updateOne({ _id: tenantId }, { $pullAll: { pendingEvents: [raw] } }),
        );
      await forget(tenantId, event.id);
    },
    forget,
    async postpone(due, until) {
      await reminders.updateOne(
        { _id: reminderId(due.tenantId, due.completionId) },
        { $set: { dueAt: until } },
      );
    },
  };
}
