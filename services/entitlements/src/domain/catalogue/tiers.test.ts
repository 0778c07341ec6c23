import { describe, expect, it } from '@jest/globals';
import { CAPABILITY_KEYS, LIMIT_KEYS, RATE_LIMIT_KEYS } from './keys.js';
import { TIER_CODES } from './tier.js';
import type { TierCode } from './tier.js';
import { TIERS } from './tiers.js';

// The spec's "Limits" tables, transcribed: null = unlimited, 0 = "none" / "not available".
const SPEC_RESOURCE_LIMITS = {
  SUPPLIER_FREE: [1_000, 3, 3, 0, 1_000],
  SUPPLIER_PLUS: [5_000, 15, 10, 0, 10_000],
  CORE: [null, null, 25, 10_000, 100_000],
  ENTERPRISE: [null, null, null, null, null],
} as const;
const SPEC_API_REQUESTS = {
  SUPPLIER_FREE: { perDay: 0, perMinute: 0 },
  SUPPLIER_PLUS: { perDay: 10_000, perMinute: 100 },
  CORE: { perDay: 50_000, perMinute: 500 },
  ENTERPRISE: { perDay: 200_000, perMinute: 2_000 },
} as const;
const SPEC_TIERS = ['SUPPLIER_FREE', 'SUPPLIER_PLUS', 'CORE', 'ENTERPRISE'] as const;

describe('the tier catalogue', () => {
  it('holds the five tiers with the names the spec uses', () => {
    expect(Object.keys(TIERS).sort()).toEqual([...TIER_CODES].sort());
    expect(TIERS.SUPPLIER_FREE.name).toBe('Supplier Free');
    expect(TIERS.SUPPLIER_PLUS.name).toBe('Supplier Plus');
    expect(TIERS.CORE.name).toBe('Core');
    expect(TIERS.ENTERPRISE.name).toBe('Enterprise');
    expect(TIERS.SVC_CORE.name).toBe('SVC Core');
    for (const code of TIER_CODES) expect(TIERS[code].code).toBe(code);
  });

  it.each(SPEC_TIERS)('gives %s exactly the resource limits of the spec table', (code) => {
    const expected = Object.fromEntries(LIMIT_KEYS.map((key, i) => [key, SPEC_RESOURCE_LIMITS[code][i]]));
    expect(TIERS[code].limits).toEqual(expected);
  });

  it.each(SPEC_TIERS)('gives %s exactly the API request limits of the spec table', (code) => {
    const { perDay, perMinute } = SPEC_API_REQUESTS[code];
    expect(TIERS[code].rateLimits).toEqual({ API_REQUESTS_DAY: perDay, API_REQUESTS_MINUTE: perMinute });
  });

  it('gives SVC Core the numbers of Core, as the SVC variant of it', () => {
    expect(TIERS.SVC_CORE.limits).toEqual(TIERS.CORE.limits);
    expect(TIERS.SVC_CORE.rateLimits).toEqual(TIERS.CORE.rateLimits);
  });

  it('sets SVC Core apart from Core by its path and by supplier cascade alone', () => {
    expect(TIERS.SVC_CORE.pathProfile).toBe('SVC');
    expect(TIERS.CORE.pathProfile).toBe('SUPPLIER');
    const differing = CAPABILITY_KEYS.filter(
      (k) => TIERS.SVC_CORE.capabilities[k] !== TIERS.CORE.capabilities[k],
    );
    expect(differing).toEqual(['SUPPLIER_CASCADE']);
  });

  it('puts the supplier tiers on the SUPPLIER path and Enterprise on the SVC path', () => {
    const profiles = Object.fromEntries(TIER_CODES.map((code) => [code, TIERS[code].pathProfile]));
    expect(profiles).toEqual({
      SUPPLIER_FREE: 'SUPPLIER',
      SUPPLIER_PLUS: 'SUPPLIER',
      CORE: 'SUPPLIER',
      SVC_CORE: 'SVC',
      ENTERPRISE: 'SVC',
    });
  });

  it('grants the documented capability matrix', () => {
    const granted = (code: TierCode) => CAPABILITY_KEYS.filter((key) => TIERS[code].capabilities[key]);
    expect(granted('SUPPLIER_FREE')).toEqual(['BULK_UPLOAD']);
    expect(granted('SUPPLIER_PLUS')).toEqual(['API_ACCESS', 'BULK_UPLOAD', 'EXPECTED_DATA_SETS']);
    const core = [
      'API_ACCESS',
      'BULK_UPLOAD',
      'TRACEABILITY',
      'DIGITAL_PRODUCT_PASSPORTS',
      'EXPECTED_DATA_SETS',
    ];
    expect(granted('CORE')).toEqual(core);
    expect(granted('SVC_CORE')).toEqual([...core, 'SUPPLIER_CASCADE']);
    expect(granted('ENTERPRISE')).toEqual([...CAPABILITY_KEYS]);
  });

  it.each([...TIER_CODES])('keeps %s capabilities consistent with its numbers', (code) => {
    const tier = TIERS[code];
    const apiAllowance = RATE_LIMIT_KEYS.every((key) => tier.rateLimits[key] > 0);
    expect(tier.capabilities.API_ACCESS).toBe(apiAllowance);
    expect(tier.capabilities.TRACEABILITY).toBe(tier.limits.MAX_TRACED_PRODUCTS !== 0);
    expect(tier.capabilities.BULK_UPLOAD).toBe(tier.limits.BULK_UPLOAD_ROWS_MONTH !== 0);
  });

  it('never lowers a limit or takes a capability away on the way up', () => {
    for (const code of TIER_CODES) {
      const tier = TIERS[code];
      if (tier.upgradesTo === null) continue;
      const next = TIERS[tier.upgradesTo];
      for (const key of LIMIT_KEYS) {
        const [from, to] = [tier.limits[key], next.limits[key]];
        expect(to === null || (from !== null && to >= from)).toBe(true);
      }
      for (const key of RATE_LIMIT_KEYS)
        expect(next.rateLimits[key]).toBeGreaterThanOrEqual(tier.rateLimits[key]);
      for (const key of CAPABILITY_KEYS)
        if (tier.capabilities[key]) expect(next.capabilities[key]).toBe(true);
    }
  });

  it('is frozen, so no caller can change a tier at run time', () => {
    expect(Object.isFrozen(TIERS)).toBe(true);
    for (const code of TIER_CODES) {
      const tier = TIERS[code];
      expect([tier, tier.limits, tier.rateLimits, tier.capabilities].every(Object.isFrozen)).toBe(true);
    }
  });
});
