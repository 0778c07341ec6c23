import type { Collection, Db } from 'mongodb';
import type { OutboxRepository } from '../ports.js';
import { AGGREGATES_COLLECTION, type AggregateDocument } from './aggregate-document.js';
import { leaseClaims } from './lease-claims.js';
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
}

export type { DuePublication, OutboxEntry, OutboxRepository } from '../ports.js';

const reminderId = (tenantId: string, completionId: string): string => `${tenantId}:${completionId}`;

/**
 * The outbox of `milestone.completed` events: the marker lives in the aggregate (`outbox`, pushed
 * by the completion's own update), the reminders and claims in collections of their own. The
 * aggregate's update runs under `lock`, shared with the other writers of the tenant's document.
 */
export function outboxRepository(db: Db, lock: TenantWriteLock): OutboxRepository {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  const reminders: Collection<DueDocument> = db.collection(OUTBOX_DUE_COLLECTION);
  const claims = leaseClaims(db, OUTBOX_CLAIMS_COLLECTION);
  const forget = async (tenantId: string, completionId: string) => {
    await reminders.deleteOne({ _id: reminderId(tenantId, completionId) });
  };
  return {
    async remind(tenantId, completionId, dueAt, now) {
      try {
        await reminders.insertOne({
          _id: reminderId(tenantId, completionId),
          tenantId,
          completionId,
          dueAt,
          createdAt: now,
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
      }));
    },
    claim: (due, now, leaseMs) =>
      claims.claim(reminderId(due.tenantId, due.completionId), due.dueAt, now, leaseMs),
    release: (claim) => claims.release(claim),
    async entry(tenantId, completionId) {
      const doc = await aggregates.findOne(
        { _id: tenantId },
        { projection: { manualCompletions: 1, detectedCompletions: 1, outbox: 1 } },
      );
      const completion = [...(doc?.manualCompletions ?? []), ...(doc?.detectedCompletions ?? [])].find(
        (c) => c.id === completionId,
      );
      if (completion === undefined) return { state: 'unwritten' };
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
    forget,
    async postpone(due, until) {
      await reminders.updateOne(
        { _id: reminderId(due.tenantId, due.completionId) },
        { $set: { dueAt: until } },
      );
    },
  };
}
