import { CAPABILITY_KEYS } from '../catalogue/keys.js';
import type { PathProfile, Tier, TierCode } from '../catalogue/tier.js';
import { buildUpgradeContext, type UpgradeContext } from '../upgrade/upgrade-context.js';

/**
 * The version of the tier catalogue (tiers, capabilities, limits, upgrade copy). Bump it with any
 * change to them: every tenant's tier is then announced again, so consumers (adoption) hold what
 * the catalogue now says without asking.
 */
export const TIER_CATALOGUE_VERSION = 1;

/** The `data` of a `tier.changed` event: the tier as consumers need it, and its upgrade offers. */
export interface TierChangedData {
  readonly tierCode: TierCode;
  readonly tierName: string;
  readonly pathProfile: PathProfile;
  /** The capability keys the tier grants, in catalogue order. */
  readonly capabilities: readonly string[];
  readonly catalogueVersion: number;
  /**
   * What to offer for each capability the tier lacks (keyed by capability): a function of
   * (tier, capability, catalogue version) only, so consumers keep them per tier.
   */
  readonly upgradeContexts: Readonly<Record<string, UpgradeContext>>;
}

/** What a `tier.changed` announces for `tier` under the current catalogue. */
export function tierChangedData(tier: Tier): TierChangedData {
  const upgradeContexts: Record<string, UpgradeContext> = {};
  for (const key of CAPABILITY_KEYS) {
    if (!tier.capabilities[key]) upgradeContexts[key] = buildUpgradeContext(tier, key);
  }
  return {
    tierCode: tier.code,
    tierName: tier.name,
    pathProfile: tier.pathProfile,
    capabilities: CAPABILITY_KEYS.filter((key) => tier.capabilities[key]),
    catalogueVersion: TIER_CATALOGUE_VERSION,
    upgradeContexts,
  };
}
