import type { Collection, Db } from 'mongodb';
import type { ManualCompletion } from '../domain/index.js';
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

/** A completion whose event the relay should check, and since when. */
export interface DuePublication {
  readonly tenantId: string;
  readonly completionId: string;
  readonly dueAt: Date;
  /** When the completing call wrote this reminder (just before the completion itself). */
  readonly createdAt: Date;
}

/**
 * Where a completion stands: its event still to be published, published already, or not in
 * the aggregate at all (the completing write lost its race, or has not landed yet).
 */
export type OutboxEntry =
  | { readonly state: 'unpublished'; readonly completion: ManualCompletion }
  | { readonly state: 'published' }
  | { readonly state: 'unwritten' };

export interface OutboxRepository {
  /**
   * Reminds the relay to check the completion's event at `dueAt`. Written before the completion:
   * a reminder without a completion is dropped by the relay, a completion without a reminder
   * would never be relayed.
   */
  remind(tenantId: string, completionId: string, dueAt: Date, now: Date): Promise<void>;
  /** Reminders that are due, oldest first. */
  due(now: Date, limit: number): Promise<readonly DuePublication[]>;
  /**
   * Takes a due reminder for this replica: an insert keyed by completion, due time and lease
   * period, so of several replicas asking at once exactly one gets it.
   */
  claim(due: DuePublication, now: Date, leaseMs: number): Promise<string | null>;
  /** Gives a claim back once the reminder is dealt with (or failed). */
  release(claim: string): Promise<void>;
  /** Where the completion stands in its tenant's aggregate. */
  entry(tenantId: string, completionId: string): Promise<OutboxEntry>;
  /** Takes the completion out of the outbox (its event is in the stream) and drops its reminder. */
  markPublished(tenantId: string, completionId: string): Promise<void>;
  /** Drops a reminder (its completion is published, or was never written). */
  forget(tenantId: string, completionId: string): Promise<void>;
  /** Moves a reminder later. */
  postpone(due: DuePublication, until: Date): Promise<void>;
}

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
