import type { Collection, Db } from 'mongodb';
import {
  AGGREGATES_COLLECTION,
  derivedFields,
  type AggregateDocument,
  type DerivedRecord,
} from './aggregate-document.js';
import { leaseClaims } from './lease-claims.js';
import type { TenantWriteLock } from './tenant-write-lock.js';
import { counterIs } from './write-helpers.js';

/** When each tenant's drift check is due: small documents, so the due query stays cheap. */
export const DRIFT_SCHEDULE_COLLECTION = 'drift_schedule';
/** Leases of tenants a drift-watch replica is working on. */
export const DRIFT_CLAIMS_COLLECTION = 'drift_claims';

interface ScheduleDocument {
  _id: string;
  dueAt: Date;
}

/** A tenant whose check is due, and since when. */
export interface DueTenant {
  readonly tenantId: string;
  readonly dueAt: Date;
}

export interface DriftRepository {
  /** Sets when the tenant is next due (null: never, until a write schedules it). */
  schedule(tenantId: string, at: Date | null): Promise<void>;
  /** Tenants whose check is due, most overdue first. */
  due(now: Date, limit: number): Promise<readonly DueTenant[]>;
  /**
   * Takes a due tenant for this replica: an insert keyed by tenant, due time and lease period,
   * so of several replicas asking at once exactly one gets a claim. A replica that dies holding
   * it delays the tenant by one lease at most (the next period has a new key).
   */
  claim(due: DueTenant, now: Date, leaseMs: number): Promise<string | null>;
  /** Gives a claim back once the tenant's check is recorded (or failed). */
  release(claim: string): Promise<void>;
  /**
   * Stores a drift-watch recompute if neither the facts (`version`) nor the ledger
   * (`driftRevision`) moved since they were read; false when another writer got there first.
   */
  record(
    tenantId: string,
    read: { version: number; driftRevision: number },
    derived: DerivedRecord,
    now: Date,
  ): Promise<boolean>;
}

/** The drift watch's store: schedule, claims, and the ledger in the aggregate documents. */
export function driftRepository(db: Db, lock: TenantWriteLock): DriftRepository {
  const aggregates: Collection<AggregateDocument> = db.collection(AGGREGATES_COLLECTION);
  const schedule: Collection<ScheduleDocument> = db.collection(DRIFT_SCHEDULE_COLLECTION);
  const claims = leaseClaims(db, DRIFT_CLAIMS_COLLECTION);
  return {
    async schedule(tenantId, at) {
      if (at === null) await schedule.deleteOne({ _id: tenantId });
      else await schedule.updateOne({ _id: tenantId }, { $set: { dueAt: at } }, { upsert: true });
    },
    async due(now, limit) {
      const docs = await schedule
        .find({ dueAt: { $lte: now } })
        .sort({ dueAt: 1 })
        .limit(limit)
        .toArray();
      return docs.map((d) => ({ tenantId: d._id, dueAt: d.dueAt }));
    },
    claim: (due, now, leaseMs) => claims.claim(due.tenantId, due.dueAt, now, leaseMs),
    release: (claim) => claims.release(claim),
    record: (tenantId, read, derived, now) =>
      lock.run(tenantId, async () => {
        const result = await aggregates.updateOne(
          { _id: tenantId, version: counterIs(read.version), driftRevision: counterIs(read.driftRevision) },
          { $set: { ...derivedFields(derived), updatedAt: now }, $inc: { driftRevision: 1 } },
        );
        return result.matchedCount === 1;
      }),
  };
}
