import { TIER_CODES, type TierCode } from '@tap/contracts';
import type { CapabilityKey, LimitKey, RateLimitKey } from './keys.js';

// The tier codes are public (@tap/contracts): the OpenAPI document's enums read the same list.
export { TIER_CODES, type TierCode };

/** Which adoption milestones a tenant gets; derived from the tier. */
export type PathProfile = 'SUPPLIER' | 'SVC';

/** The `{ code, name }` pair the spec shows wherever a tier is named. */
export interface TierRef {
  readonly code: TierCode;
  readonly name: string;
}

/**
 * One subscription tier. Limits: a number is a ceiling (0 means "none"), null is unlimited.
 * Rate limits are requests per window; 0 means the API is not available in the tier.
 */
export interface Tier extends TierRef {
  readonly pathProfile: PathProfile;
  /** The next tier up on this tier's upgrade path; null at the top. */
  readonly upgradesTo: TierCode | null;
  readonly limits: Readonly<Record<LimitKey, number | null>>;
  readonly rateLimits: Readonly<Record<RateLimitKey, number>>;
  readonly capabilities: Readonly<Record<CapabilityKey, boolean>>;
}
