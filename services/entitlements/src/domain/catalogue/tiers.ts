import { CAPABILITY_KEYS } from './keys.js';
import type { CapabilityKey, LimitKey, RateLimitKey } from './keys.js';
import type { Tier, TierCode } from './tier.js';

/*
 * The tier catalogue. Resource and rate limits are the spec's "Limits" tables, word for word;
 * SVC_CORE carries Core's numbers (it is Core sold on the SVC path). Capabilities, path
 * profiles and upgrade paths are our decisions, recorded in docs/entitlements-model.md.
 */

function capabilities(...granted: CapabilityKey[]): Readonly<Record<CapabilityKey, boolean>> {
  const entries = CAPABILITY_KEYS.map((key) => [key, granted.includes(key)] as const);
  return Object.freeze(Object.fromEntries(entries) as Record<CapabilityKey, boolean>);
}

function limits(values: Record<LimitKey, number | null>): Readonly<Record<LimitKey, number | null>> {
  return Object.freeze({ ...values });
}

function rateLimits(perDay: number, perMinute: number): Readonly<Record<RateLimitKey, number>> {
  return Object.freeze({ API_REQUESTS_DAY: perDay, API_REQUESTS_MINUTE: perMinute });
}

const CORE_LIMITS = limits({
  MAX_ACTIVE_PRODUCTS: null,
  MAX_CONNECTIONS: null,
  MAX_USERS: 25,
  MAX_TRACED_PRODUCTS: 10_000,
  BULK_UPLOAD_ROWS_MONTH: 100_000,
});

const CORE_CAPABILITIES = [
  'API_ACCESS',
  'BULK_UPLOAD',
  'TRACEABILITY',
  'DIGITAL_PRODUCT_PASSPORTS',
  'EXPECTED_DATA_SETS',
] as const satisfies readonly CapabilityKey[];

/** The tier catalogue, keyed by code. Frozen: tiers are data, never mutated at run time. */
export const TIERS: Readonly<Record<TierCode, Tier>> = Object.freeze({
  SUPPLIER_FREE: Object.freeze({
    code: 'SUPPLIER_FREE',
    name: 'Supplier Free',
    pathProfile: 'SUPPLIER',
    upgradesTo: 'SUPPLIER_PLUS',
    limits: limits({
      MAX_ACTIVE_PRODUCTS: 1_000,
      MAX_CONNECTIONS: 3,
      MAX_USERS: 3,
      MAX_TRACED_PRODUCTS: 0,
      BULK_UPLOAD_ROWS_MONTH: 1_000,
    }),
    // "Not available" in the spec: no API traffic at all, enforced through API_ACCESS.
    rateLimits: rateLimits(0, 0),
    capabilities: capabilities('BULK_UPLOAD'),
  }),
  SUPPLIER_PLUS: Object.freeze({
    code: 'SUPPLIER_PLUS',
    name: 'Supplier Plus',
    pathProfile: 'SUPPLIER',
    upgradesTo: 'CORE',
    limits: limits({
      MAX_ACTIVE_PRODUCTS: 5_000,
      MAX_CONNECTIONS: 15,
      MAX_USERS: 10,
      MAX_TRACED_PRODUCTS: 0,
      BULK_UPLOAD_ROWS_MONTH: 10_000,
    }),
    rateLimits: rateLimits(10_000, 100),
    capabilities: capabilities('API_ACCESS', 'BULK_UPLOAD', 'EXPECTED_DATA_SETS'),
  }),
  CORE: Object.freeze({
    code: 'CORE',
    name: 'Core',
    pathProfile: 'SUPPLIER',
    upgradesTo: 'ENTERPRISE',
    limits: CORE_LIMITS,
    rateLimits: rateLimits(50_000, 500),
    capabilities: capabilities(...CORE_CAPABILITIES),
  }),
  SVC_CORE: Object.freeze({
    code: 'SVC_CORE',
    name: 'SVC Core',
    pathProfile: 'SVC',
    upgradesTo: 'ENTERPRISE',
    limits: CORE_LIMITS,
    rateLimits: rateLimits(50_000, 500),
    // The one difference from Core: an SVC tenant maps its network, so it cascades requests.
    capabilities: capabilities(...CORE_CAPABILITIES, 'SUPPLIER_CASCADE'),
  }),
  ENTERPRISE: Object.freeze({
    code: 'ENTERPRISE',
    name: 'Enterprise',
    pathProfile: 'SVC',
    upgradesTo: null,
    limits: limits({
      MAX_ACTIVE_PRODUCTS: null,
      MAX_CONNECTIONS: null,
      MAX_USERS: null,
      MAX_TRACED_PRODUCTS: null,
      BULK_UPLOAD_ROWS_MONTH: null,
    }),
    rateLimits: rateLimits(200_000, 2_000),
    capabilities: capabilities(...CAPABILITY_KEYS),
  }),
});
