/**
 * Features a tier switches on or off: the one catalogue of capability keys. Entitlements decides
 * which a tier grants; adoption only reads the grant (paid teasers, milestone applicability).
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

/** A capability key. */
export type CapabilityKey = (typeof CAPABILITY_KEYS)[number];

/** True for a capability key. */
export function isCapabilityKey(value: string): value is CapabilityKey {
  return (CAPABILITY_KEYS as readonly string[]).includes(value);
}
