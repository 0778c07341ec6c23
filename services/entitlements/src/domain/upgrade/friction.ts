import { FRICTION_TYPES, type FrictionType } from '@tap/contracts';
import { entitlementErrors } from '../errors.js';
import { isCapabilityKey, isLimitKey, isRateLimitKey } from '../catalogue/keys.js';
import type { CapabilityKey, LimitKey, RateLimitKey } from '../catalogue/keys.js';

/** Why the tenant met a wall: a missing feature, a resource ceiling, a request ceiling (public: @tap/contracts). */
export { FRICTION_TYPES, type FrictionType };

/** A key of the catalogue, narrowed, with the friction it stands for. */
export type FrictionKey =
  | { readonly frictionType: 'CAPABILITY'; readonly key: CapabilityKey }
  | { readonly frictionType: 'LIMIT'; readonly key: LimitKey }
  | { readonly frictionType: 'RATE_LIMIT'; readonly key: RateLimitKey };

/** Classifies a key; throws UNKNOWN_CAPABILITY for a key outside the catalogue. */
export function classifyKey(key: string): FrictionKey {
  if (isCapabilityKey(key)) return { frictionType: 'CAPABILITY', key };
  if (isLimitKey(key)) return { frictionType: 'LIMIT', key };
  if (isRateLimitKey(key)) return { frictionType: 'RATE_LIMIT', key };
  throw entitlementErrors.create('UNKNOWN_CAPABILITY', { details: { capability: key } });
}

/**
 * Classifies the key of an upgrade context. The key decides the friction; a caller may state
 * it too (the adoption service does), but a statement contradicting the key is a caller bug.
 */
export function resolveFrictionKey(key: string, stated?: string): FrictionKey {
  const resolved = classifyKey(key);
  if (stated === undefined) return resolved;
  if (!(FRICTION_TYPES as readonly string[]).includes(stated)) {
    throw entitlementErrors.create('UNKNOWN_FRICTION_TYPE', { details: { frictionType: stated } });
  }
  if (stated !== resolved.frictionType) {
    throw entitlementErrors.create('FRICTION_TYPE_MISMATCH', {
      details: { capability: key, frictionType: stated, expected: resolved.frictionType },
    });
  }
  return resolved;
}
