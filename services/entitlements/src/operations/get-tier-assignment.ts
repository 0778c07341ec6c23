import type { ReadOperationsDeps } from './read-deps.js';
import type { TierAssignment } from './ports/tier-assignments-repository.js';

/** GetTier: the tenant's tier assignment, from the read model (a first read records the default tier). */
export async function getTierAssignment(
  deps: Pick<ReadOperationsDeps, 'reads'>,
  tenantId: string,
): Promise<TierAssignment> {
  return (await deps.reads.view(tenantId)).tier;
}
