import type { ReadOperationsDeps } from './read-deps.js';
import type { TierAssignment } from './ports/tier-assignments-repository.js';

/**
 * GetTier: the tenant's tier assignment, from the read model's tiers (a first read records the
 * default tier); the usage document is not read.
 */
export async function getTierAssignment(
  deps: Pick<ReadOperationsDeps, 'reads'>,
  tenantId: string,
): Promise<TierAssignment> {
  return deps.reads.tier(tenantId);
}
