import type { CapabilityKey, LimitKey, RateLimitKey } from './keys.js';

/** Every tier code, lowest first within each upgrade path. */
export const TIER_CODES = ['SUPPLIER_FREE', 'SUPPLIER_PLUS', 'CORE', 'SVC_CORE', 'ENTERPRISE'] as const;

/** A subscription tier code, as stored on the tenant and shown in the usage report. */
export type TierCode = (typeof TIER_CODES)[number];

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
