import { buildUpgradeContext, getTier, type UpgradeContext } from '../domain/index.js';
import type { TierAssignment } from './ports/tier-assignments-repository.js';

/**
 * GetUpgradeContext: what the tenant's next tier would give it for `capability`, from its tier
 * assignment (the read model's; getTierAssignment) alone, so reads of one assignment can share it.
 */
export function upgradeContextOf(
  assignment: TierAssignment,
  request: { readonly capability: string; readonly frictionType?: string },
): UpgradeContext {
  return buildUpgradeContext(getTier(assignment.tierCode), request.capability, request.frictionType);
}
