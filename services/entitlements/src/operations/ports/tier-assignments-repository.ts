import type { TierCode } from '../../domain/index.js';

export interface TierAssignment {
  readonly tenantId: string;
  readonly tierCode: TierCode;
  readonly updatedAt: Date;
  /** True when the operator's SetTier wrote it (not the default tier of a first read). */
  readonly byOperator?: boolean;
}

/** Each tenant's tier. Nothing caches it in the store: a change is seen at once. */
export interface TierAssignmentsRepository {
  /** The tenant's tier; a first read records the default tier. */
  findOrCreate(tenantId: string, now: Date): Promise<TierAssignment>;
  setTier(tenantId: string, tierCode: TierCode, now: Date): Promise<TierAssignment>;
}
