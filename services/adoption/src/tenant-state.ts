import type { AccessClaims } from '@tap/tokens';
import { recompute, type AdoptionState, type PathProfile } from './domain/index.js';
import type { AggregatesRepository, TenantFacts } from './store/aggregates-repository.js';

/** What adoption needs to know of the tenant's tier (asked of entitlements, the owner). */
export interface TierView {
  readonly pathProfile: PathProfile;
  readonly capabilities: readonly string[];
}

export type TierLookup = (authorization: string) => Promise<TierView>;

/**
 * Loads a tenant's facts and recomputes its adoption state: the one read path shared by every
 * adoption RPC. The tenant comes from verified claims only.
 */
export async function loadTenantState(
  deps: { aggregates: AggregatesRepository; tierOf: TierLookup; now: () => Date },
  claims: AccessClaims,
  authorization: string,
): Promise<{ state: AdoptionState; facts: TenantFacts; tier: TierView }> {
  const [facts, tier] = await Promise.all([deps.aggregates.load(claims.tenantId), deps.tierOf(authorization)]);
  const { state } = recompute({
    companyId: claims.tenantId,
    pathProfile: tier.pathProfile,
    facts: facts.facts,
    manualCompletions: facts.manualCompletions,
    capabilities: tier.capabilities,
    previousBand: facts.lastBand,
    version: facts.version,
    now: deps.now(),
  });
  return { state, facts, tier };
}
