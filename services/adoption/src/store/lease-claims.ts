import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from './write-helpers.js';

interface ClaimDocument {
  _id: string;
  claimedAt: Date;
}

/**
 * Cross-replica claims on due work, by unique-_id insert: the one write FerretDB v1 makes atomic
 * across processes (docs/foundation.md). A claim's id names the work, its due time and the lease
 * period `now` falls in, so of several replicas asking at once exactly one gets it, and work whose
 * holder died is claimable again in the next period without anyone deleting the stale claim.
 */
export interface LeaseClaims {
  /** The claim's id, or null when another replica holds this period's claim. */
  claim(workId: string, dueAt: Date, now: Date, leaseMs: number): Promise<string | null>;
  /** Gives a claim back once the work is done (or failed). */
  release(claim: string): Promise<void>;
}

export function leaseClaims(db: Db, collection: string): LeaseClaims {
  const claims: Collection<ClaimDocument> = db.collection(collection);
  return {
    async claim(workId, dueAt, now, leaseMs) {
      const period = Math.max(0, Math.floor((now.getTime() - dueAt.getTime()) / leaseMs));
      const id = `${workId}:${dueAt.getTime()}:${period}`;
      try {
        await claims.insertOne({ _id: id, claimedAt: now });
        return id;
      } catch (error) {
        if (isDuplicateKey(error)) return null;
        throw error;
      }
    },
    async release(claim) {
      await claims.deleteOne({ _id: claim });
    },
  };
}
