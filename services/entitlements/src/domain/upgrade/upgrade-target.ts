import type { Tier } from '../catalogue/tier.js';
import { tiersAbove } from '../catalogue/tier-lookup.js';
import type { FrictionKey } from './friction.js';

/** True when `to` is a higher ceiling than `from` (null is unlimited). */
export function raisesLimit(from: number | null, to: number | null): boolean {
  return from !== null && (to === null || to > from);
}

/** True when `candidate` gives more of `subject` than `current` does. */
export function grantsMore(current: Tier, candidate: Tier, subject: FrictionKey): boolean {
  switch (subject.frictionType) {
    case 'CAPABILITY':
      return candidate.capabilities[subject.key] && !current.capabilities[subject.key];
    case 'LIMIT':
      return raisesLimit(current.limits[subject.key], candidate.limits[subject.key]);
    case 'RATE_LIMIT':
      return candidate.rateLimits[subject.key] > current.rateLimits[subject.key];
  }
}

/** True when the tier already has all of `subject` there is: the feature, or no ceiling. */
export function alreadyHasAll(tier: Tier, subject: FrictionKey): boolean {
  switch (subject.frictionType) {
    case 'CAPABILITY':
      return tier.capabilities[subject.key];
    case 'LIMIT':
      return tier.limits[subject.key] === null;
    case 'RATE_LIMIT':
      return false;
  }
}

/**
 * The lowest tier above `tier` on its upgrade path that grants or raises `subject`; null when
 * none does. Lowest, because the cheapest step that removes the wall is the honest offer.
 */
export function findUpgradeTarget(tier: Tier, subject: FrictionKey): Tier | null {
  return tiersAbove(tier).find((candidate) => grantsMore(tier, candidate, subject)) ?? null;
}
