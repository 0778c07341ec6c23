import {
  DEFAULT_TIER_CODE,
  recompute,
  UNSEEN_TIER,
  type RecomputeResult,
  type TierView,
  type UpgradeContexts,
} from '../domain/index.js';
import { storedCompletions, type TenantAggregate, type TierCatalogue, type TierSnapshot } from '../ports.js';

/** The tenant's tier as adoption holds it, and the upgrade offers of what it lacks. */
export interface TenantTier {
  readonly tier: TierView;
  readonly upgradeContexts: UpgradeContexts;
}

/**
 * The tenant's tier: the one its last `tier.changed` set (entitlements' default tier before any),
 * with that tier's upgrade offers from the per-tier table. Nothing here calls entitlements or
 * writes: the tier arrived by event. Without a table (tests of the store alone) UNSEEN_TIER.
 */
export async function tenantTier(
  tiers: TierCatalogue | undefined,
  stored: TierSnapshot | null,
): Promise<TenantTier> {
  const entry = await tiers?.entry(stored?.tierCode ?? DEFAULT_TIER_CODE);
  return { tier: stored ?? entry ?? UNSEEN_TIER, upgradeContexts: entry?.upgradeContexts ?? {} };
}

/**
 * The state a writer decides on (a completion, a renewal): the stored facts under the tenant's
 * tier, as of `now`. Only writes recompute; reads serve the projection the writes stored.
 */
export function recomputeForWrite(aggregate: TenantAggregate, tier: TenantTier, now: Date): RecomputeResult {
  return recompute({
    companyId: aggregate.tenantId,
    pathProfile: tier.tier.pathProfile,
    facts: aggregate.facts,
    manualCompletions: storedCompletions(aggregate),
    capabilities: tier.tier.capabilities,
    upgradeContexts: tier.upgradeContexts,
    previousBand: aggregate.lastBand,
    version: aggregate.version,
    now,
  });
}
