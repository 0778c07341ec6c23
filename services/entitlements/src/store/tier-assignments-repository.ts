import type { Collection, Db } from 'mongodb';
import type { TierCode } from '../domain/index.js';
import { isDuplicateKey } from '@tap/errors';
import type {
  TierAssignment,
  TierAssignmentsRepository,
} from '../operations/ports/tier-assignments-repository.js';

/** The default tier of a tenant entitlements has not heard of yet. */
export const DEFAULT_TIER: TierCode = 'SUPPLIER_FREE';

/** Each tenant's tier (`tier_assignments`, `_id` = tenant id). */
interface TierAssignmentDocument {
  _id: string;
  tierCode: TierCode;
  updatedAt: Date;
  /** Written by SetTier (absent on documents written before it was recorded, and on defaults). */
  setBy?: 'operator';
}

/** The tier assignments over `db`. */
export function tierAssignmentsRepository(db: Db): TierAssignmentsRepository {
  const assignments: Collection<TierAssignmentDocument> = db.collection('tier_assignments');
  const toAssignment = (doc: TierAssignmentDocument): TierAssignment => ({
    tenantId: doc._id,
    tierCode: doc.tierCode,
    updatedAt: doc.updatedAt,
    ...(doc.setBy === 'operator' ? { byOperator: true } : {}),
  });
  return {
    // Read first and insert only when missing: an upsert on the read path would, on FerretDB
    // (read-modify-write updates), be able to write an old tier back over a concurrent setTier.
    async findOrCreate(tenantId, now) {
      const existing = await assignments.findOne({ _id: tenantId });
      if (existing) return toAssignment(existing);
      const created: TierAssignmentDocument = { _id: tenantId, tierCode: DEFAULT_TIER, updatedAt: now };
      try {
        await assignments.insertOne(created);
        return toAssignment(created);
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const winner = await assignments.findOne({ _id: tenantId });
        return toAssignment(winner ?? created);
      }
    },
    async setTier(tenantId, tierCode, now) {
      const doc: TierAssignmentDocument = { _id: tenantId, tierCode, updatedAt: now, setBy: 'operator' };
      await assignments.replaceOne({ _id: tenantId }, doc, { upsert: true }).catch(async (error: unknown) => {
        // Two first writes of one tenant at once: the loser writes again over the winner's insert.
        if (!isDuplicateKey(error)) throw error;
        await assignments.replaceOne({ _id: tenantId }, doc);
      });
      return toAssignment(doc);
    },
  };
}
