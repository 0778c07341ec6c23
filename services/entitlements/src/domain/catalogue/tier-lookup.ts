import { entitlementErrors } from '../errors.js';
import { TIER_CODES } from './tier.js';
import type { PathProfile, Tier, TierCode, TierRef } from './tier.js';
import { TIERS } from './tiers.js';

/** True for a code of the tier catalogue. */
export function isTierCode(value: string): value is TierCode {
  return (TIER_CODES as readonly string[]).includes(value);
}

/** The tier for `code`; throws UNKNOWN_TIER for anything outside the catalogue. */
export function getTier(code: string): Tier {
  if (!isTierCode(code)) {
    throw entitlementErrors.create('UNKNOWN_TIER', { details: { tierCode: code } });
  }
  return TIERS[code];
}

/** The `{ code, name }` pair shown in reports and upgrade prompts. */
export function tierRef(tier: Tier): TierRef {
  return { code: tier.code, name: tier.name };
}

/** The tiers above `tier` on its upgrade path, nearest first. */
export function tiersAbove(tier: Tier): Tier[] {
  const above: Tier[] = [];
  let next = tier.upgradesTo;
  // The catalogue is a tree converging on Enterprise; the bound guards against a bad edit.
  while (next !== null && above.length < TIER_CODES.length) {
    const nextTier: Tier = TIERS[next];
    above.push(nextTier);
    next = nextTier.upgradesTo;
  }
  return above;
}

/** The upgrade ladder that starts at the entry tier of a path profile, lowest first. */
export function upgradeLadder(profile: PathProfile): Tier[] {
  const entry = profile === 'SUPPLIER' ? TIERS.SUPPLIER_FREE : TIERS.SVC_CORE;
  return [entry, ...tiersAbove(entry)];
}
