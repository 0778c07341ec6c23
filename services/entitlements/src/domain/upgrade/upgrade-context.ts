import type { Tier, TierRef } from '../catalogue/tier.js';
import { tierRef } from '../catalogue/tier-lookup.js';
import { resolveFrictionKey } from './friction.js';
import type { FrictionType } from './friction.js';
import { includedCopy, noUpgradeCopy, upgradeCopy } from './upgrade-copy.js';
import { alreadyHasAll, findUpgradeTarget } from './upgrade-target.js';

interface UpgradeContextBase {
  /** The key asked for, echoed. */
  readonly capability: string;
  readonly frictionType: FrictionType;
  readonly currentTier: TierRef;
  readonly headline: string;
  readonly featureHighlights: string[];
  readonly cta: string;
}

/** The spec's Upgrade context; `targetTier` exists only when an upgrade is available. */
export type UpgradeContext =
  | (UpgradeContextBase & { readonly upgradeAvailable: true; readonly targetTier: TierRef })
  | (UpgradeContextBase & { readonly upgradeAvailable: false });

/**
 * What to offer a tenant on `tier` who met `capability` (a capability, limit or rate-limit
 * key). The target is the lowest tier above on the tenant's upgrade path that grants or
 * raises it. Throws UNKNOWN_CAPABILITY, UNKNOWN_FRICTION_TYPE or FRICTION_TYPE_MISMATCH.
 */
export function buildUpgradeContext(tier: Tier, capability: string, frictionType?: string): UpgradeContext {
  const subject = resolveFrictionKey(capability, frictionType);
  const currentTier = tierRef(tier);
  const target = findUpgradeTarget(tier, subject);
  if (target !== null) {
    const { headline, featureHighlights, cta } = upgradeCopy(tier, target, subject);
    return {
      capability,
      frictionType: subject.frictionType,
      upgradeAvailable: true,
      currentTier,
      targetTier: tierRef(target),
      headline,
      featureHighlights,
      cta,
    };
  }
  const copy = alreadyHasAll(tier, subject) ? includedCopy(tier, subject) : noUpgradeCopy(tier, subject);
  const { headline, featureHighlights, cta } = copy;
  return {
    capability,
    frictionType: subject.frictionType,
    upgradeAvailable: false,
    currentTier,
    headline,
    featureHighlights,
    cta,
  };
}
