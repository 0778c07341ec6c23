/**
 * Capability keys as the entitlements service names them. Adoption only reads which of these a
 * tier grants; it never decides it.
 */
export const CAPABILITY_KEYS = [
  'API_ACCESS',
  'BULK_UPLOAD',
  'TRACEABILITY',
  'DIGITAL_PRODUCT_PASSPORTS',
  'EXPECTED_DATA_SETS',
  'SUPPLIER_CASCADE',
  'NETWORK_ANALYTICS',
] as const;

/** A capability key owned by the entitlements service. */
export type CapabilityKey = (typeof CAPABILITY_KEYS)[number];

/** True when `value` is one of the known capability keys. */
export function isCapabilityKey(value: string): value is CapabilityKey {
  return (CAPABILITY_KEYS as readonly string[]).includes(value);
}

/** The known capability keys among `granted`; unknown strings are ignored, not rejected. */
export function capabilitySet(granted: readonly string[]): ReadonlySet<CapabilityKey> {
  return new Set(granted.filter(isCapabilityKey));
}
