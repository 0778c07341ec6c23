import { isCapabilityKey, type CapabilityKey } from '@tap/contracts';

// The catalogue is entitlements' (one list, in @tap/contracts); adoption only reads what a tier grants.
export { CAPABILITY_KEYS, isCapabilityKey, type CapabilityKey } from '@tap/contracts';

/** The known capability keys among `granted`; unknown strings are ignored, not rejected. */
export function capabilitySet(granted: readonly string[]): ReadonlySet<CapabilityKey> {
  return new Set(granted.filter(isCapabilityKey));
}
