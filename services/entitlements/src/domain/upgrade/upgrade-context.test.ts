import { describe, expect, it } from '@jest/globals';
import { CAPABILITY_KEYS, LIMIT_KEYS, RATE_LIMIT_KEYS } from '../catalogue/keys.js';
import { TIER_CODES } from '../catalogue/tier.js';
import { tiersAbove } from '../catalogue/tier-lookup.js';
import { TIERS } from '../catalogue/tiers.js';
import { classifyKey } from './friction.js';
import { MAX_FEATURE_HIGHLIGHTS } from './upgrade-copy.js';
import { buildUpgradeContext } from './upgrade-context.js';
import { grantsMore } from './upgrade-target.js';

const withCode = (code: string) => expect.objectContaining({ code });
const ALL_KEYS = [...CAPABILITY_KEYS, ...LIMIT_KEYS, ...RATE_LIMIT_KEYS];

describe('buildUpgradeContext', () => {
  it('offers Supplier Plus to a Supplier Free tenant asking for expected data sets', () => {
    const context = buildUpgradeContext(TIERS.SUPPLIER_FREE, 'EXPECTED_DATA_SETS');
    expect(context).toMatchObject({
      capability: 'EXPECTED_DATA_SETS',
      frictionType: 'CAPABILITY',
      upgradeAvailable: true,
      currentTier: { code: 'SUPPLIER_FREE', name: 'Supplier Free' },
      targetTier: { code: 'SUPPLIER_PLUS', name: 'Supplier Plus' },
      headline: 'Unlock Expected data sets with Supplier Plus',
      cta: 'Upgrade to Supplier Plus',
    });
    expect(context.featureHighlights[0]).toBe(
      'See which data sets your partners expect and how complete yours are',
    );
  });

  it('treats a limit key as LIMIT friction and offers the lowest tier that raises it', () => {
    const context = buildUpgradeContext(TIERS.SUPPLIER_PLUS, 'MAX_TRACED_PRODUCTS');
    expect(context).toMatchObject({ frictionType: 'LIMIT', targetTier: { code: 'CORE' } });
    expect(context.headline).toBe('Get products under traceability with Core');
    expect(context.featureHighlights[0]).toBe('Products under traceability: none → 10,000');
  });

  it('treats a rate-limit key as RATE_LIMIT friction', () => {
    const context = buildUpgradeContext(TIERS.SUPPLIER_PLUS, 'API_REQUESTS_DAY');
    expect(context).toMatchObject({ frictionType: 'RATE_LIMIT', targetTier: { code: 'CORE' } });
    expect(context.headline).toBe('Get more API requests per day with Core');
    expect(context.featureHighlights[0]).toBe('API requests per day: 10,000 → 50,000');
  });

  it('skips tiers that do not grant the capability and goes to Enterprise for network analytics', () => {
    const context = buildUpgradeContext(TIERS.SUPPLIER_FREE, 'NETWORK_ANALYTICS');
    expect(context).toMatchObject({ upgradeAvailable: true, targetTier: { code: 'ENTERPRISE' } });
  });

  it('keeps an SVC Core tenant on its own path: Enterprise is the only step up', () => {
    expect(buildUpgradeContext(TIERS.SVC_CORE, 'MAX_USERS')).toMatchObject({
      targetTier: { code: 'ENTERPRISE' },
    });
    expect(buildUpgradeContext(TIERS.CORE, 'SUPPLIER_CASCADE')).toMatchObject({
      targetTier: { code: 'ENTERPRISE' },
    });
  });

  it('has no upgrade at the top tier and then omits targetTier altogether', () => {
    const context = buildUpgradeContext(TIERS.ENTERPRISE, 'API_REQUESTS_DAY');
    expect(context).toEqual({
      capability: 'API_REQUESTS_DAY',
      frictionType: 'RATE_LIMIT',
      upgradeAvailable: false,
      currentTier: { code: 'ENTERPRISE', name: 'Enterprise' },
      headline: 'Your Enterprise plan already has our highest limit for API requests per day',
      featureHighlights: [],
      cta: 'Contact your account team',
    });
    expect(context).not.toHaveProperty('targetTier');
  });

  it('says a capability is already included instead of offering an upgrade', () => {
    const context = buildUpgradeContext(TIERS.CORE, 'EXPECTED_DATA_SETS');
    expect(context).toMatchObject({
      upgradeAvailable: false,
      headline: 'Expected data sets is included in your Core plan',
    });
    expect(context).not.toHaveProperty('targetTier');
  });

  it('says an unlimited resource has no limit instead of offering an upgrade', () => {
    const context = buildUpgradeContext(TIERS.CORE, 'MAX_CONNECTIONS');
    expect(context).toMatchObject({
      upgradeAvailable: false,
      headline: 'Your Core plan has no limit on connections',
    });
  });

  it.each([...TIER_CODES])('offers from %s, for every key, the lowest tier above that gives more', (code) => {
    const tier = TIERS[code];
    for (const key of ALL_KEYS) {
      const subject = classifyKey(key);
      const expected = tiersAbove(tier).find((candidate) => grantsMore(tier, candidate, subject));
      const context = buildUpgradeContext(tier, key);
      expect(context.upgradeAvailable).toBe(expected !== undefined);
      if (context.upgradeAvailable) expect(context.targetTier.code).toBe(expected?.code);
      expect(context.featureHighlights.length).toBeLessThanOrEqual(MAX_FEATURE_HIGHLIGHTS);
    }
  });

  it('accepts a stated friction type that matches the key', () => {
    expect(buildUpgradeContext(TIERS.CORE, 'MAX_USERS', 'LIMIT').frictionType).toBe('LIMIT');
  });

  it.each(['', 'expected_data_sets', 'SSO', 'toString'])('rejects key %j as UNKNOWN_CAPABILITY', (key) => {
    expect(() => buildUpgradeContext(TIERS.CORE, key)).toThrow(withCode('UNKNOWN_CAPABILITY'));
  });

  it('rejects an unknown friction type and one that contradicts the key', () => {
    expect(() => buildUpgradeContext(TIERS.CORE, 'MAX_USERS', 'QUOTA')).toThrow(
      withCode('UNKNOWN_FRICTION_TYPE'),
    );
    expect(() => buildUpgradeContext(TIERS.CORE, 'MAX_USERS', 'CAPABILITY')).toThrow(
      withCode('FRICTION_TYPE_MISMATCH'),
    );
  });
});
