import { entitlementErrors, isTierCode } from '../domain/index.js';
import type { UsageOperationsDeps } from './deps.js';
import type { TierAssignment } from './ports/tier-assignments-repository.js';

// Tenant ids are identity's UUIDs; the bound keeps a typo from creating a stray document.
const TENANT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface SetTierDeps extends Pick<UsageOperationsDeps, 'tiers' | 'now'> {
  /**
   * Drops the tenant's cached view here and on every replica, and marks the tenant for its
   * domain events (tier.changed, thresholds the new limits move) before SetTier answers.
   */
  readonly tierChanged: (tenantId: string) => Promise<void>;
}

/**
 * SetTier (the operator's call): validates the tenant id and tier code, records the tier and
 * tells the read models. Who may call it is the transport's business (RPC_ALLOWLIST).
 */
export async function setTier(
  deps: SetTierDeps,
  request: { readonly tenantId: string; readonly tierCode: string },
): Promise<TierAssignment> {
  if (!TENANT_ID.test(request.tenantId)) throw entitlementErrors.create('INVALID_TENANT_ID');
  if (!isTierCode(request.tierCode))
    throw entitlementErrors.create('UNKNOWN_TIER', { details: { tierCode: request.tierCode } });
  const assignment = await deps.tiers.setTier(request.tenantId, request.tierCode, deps.now());
  await deps.tierChanged(request.tenantId);
  return assignment;
}
