import type { Collection, Db } from 'mongodb';
import type { TierCode } from '../domain/index.js';

/** The default tier of a tenant entitlements has not heard of yet. */
export const DEFAULT_TIER: TierCode = 'SUPPLIER_FREE';

interface TierAssignmentDocument {
  _id: string;
  tierCode: TierCode;
  updatedAt: Date;
}

export interface TierAssignment {
  readonly tenantId: string;
  readonly tierCode: TierCode;
  readonly updatedAt: Date;
}

export interface TierAssignmentsRepository {
  /** The tenant's tier; a first read records the default tier. */
  findOrCreate(tenantId: string, now: Date): Promise<TierAssignment>;
  setTier(tenantId: string, tierCode: TierCode, now: Date): Promise<TierAssignment>;
}

export function tierAssignmentsRepository(db: Db): TierAssignmentsRepository {
  const assignments: Collection<TierAssignmentDocument> = db.collection('tier_assignments');
  const toAssignment = (doc: TierAssignmentDocument): TierAssignment => ({
    tenantId: doc._id,
    tierCode: doc.tierCode,
    updatedAt: doc.updatedAt,
  });
  return {
    async findOrCreate(tenantId, now) {
      const doc = await assignments.findOneAndUpdate(
        { _id: tenantId },
        { $setOnInsert: { tierCode: DEFAULT_TIER, updatedAt: now } },
        { upsert: true, returnDocument: 'after' },
      );
      return toAssignment(doc ?? { _id: tenantId, tierCode: DEFAULT_TIER, updatedAt: now });
    },
    async setTier(tenantId, tierCode, now) {
      const doc = await assignments.findOneAndUpdate(
        { _id: tenantId },
        { $set: { tierCode, updatedAt: now } },
        { upsert: true, returnDocument: 'after' },
      );
      return toAssignment(doc ?? { _id: tenantId, tierCode, updatedAt: now });
    },
  };
}
