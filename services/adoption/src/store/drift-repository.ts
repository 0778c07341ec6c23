import type { Collection, Db } from 'mongodb';
import { AGGREGATES_COLLECTION, derivedFields, type AggregateDocument } from './aggregate-document.js';
import { leaseClaims } from './lease-claims.js';
import type { TenantWriteLock } from './tenant-write-lock.js';
import { withPendingEvents } from './pending-events.js';
import { counterIs } from './write-helpers.js';

/** When each tenant's drift check is due: small documents, so the due query stays cheap. */
export const DRIFT_SCHEDULE_COLLECTION = 'drift_schedule';
/** Leases of tenants a drift-watch replica is working on. */
export const DRIFT_CLAIMS_COLLECTION = 'drift_claims';

interface ScheduleDocument {
  _id: string;
  dueAt: Date;
}

import type { DriftRepository } from '../ports.js';

export type { DriftRepository, DueTenant } from '../ports.js';

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
          {
            $set: { ...derivedFields(derived), updatedAt: now },
            $inc: { driftRevision: 1 },
            ...(derived.events.length > 0 ? { $push: withPendingEvents(undefined, derived.events) } : {}),
          },
        );
        return result.matchedCount === 1;
      }),
  };
}
