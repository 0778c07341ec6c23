import type { PathProfile } from './domain/index.js';

/** What adoption needs to know of the tenant's tier (asked of entitlements, the owner). */
export interface TierView {
  readonly tierCode: string;
  readonly pathProfile: PathProfile;
  readonly capabilities: readonly string[];
}

/**
 * Asks entitlements for the tier of the token's tenant (`tenantId` is the token's, for a cache
 * keyed by tenant).
 */
export type TierLookup = (authorization: string, tenantId: string) => Promise<TierView>;

/**
 * The tier assumed for a tenant adoption has never seen through an authenticated call: the
 * entry tier's profile and no paid capability. Only the hysteresis memory (`lastBand`) written
 * by the consumer can depend on it; every read recomputes with the real tier.
 */
export const UNSEEN_TIER: TierView = Object.freeze({
  tierCode: '',
  pathProfile: 'SUPPLIER',
  capabilities: [],
});

/** True when two tier views would give the same recompute. */
export function sameTier(a: TierView | null, b: TierView): boolean {
  if (a === null) return false;
  return (
    a.tierCode === b.tierCode &&
    a.pathProfile === b.pathProfile &&
    a.capabilities.length === b.capabilities.length &&
    a.capabilities.every((c, i) => b.capabilities[i] === c)
  );
}
