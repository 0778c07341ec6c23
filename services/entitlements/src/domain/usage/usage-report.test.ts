import { describe, expect, it } from '@jest/globals';
import { TIER_CODES } from '../catalogue/tier.js';
import { TIERS } from '../catalogue/tiers.js';
import { buildUsageReport } from './usage-report.js';

const now = new Date('2026-11-15T12:34:56Z');
const withCode = (code: string) => expect.objectContaining({ code });

describe('buildUsageReport', () => {
  it('reports a Core tenant in exactly the spec shape', () => {
    const report = buildUsageReport(
      TIERS.CORE,
      { MAX_ACTIVE_PRODUCTS: 120, MAX_CONNECTIONS: 4, MAX_USERS: 7, BULK_UPLOAD_ROWS_MONTH: 2_500 },
      { API_REQUESTS_DAY: 1_234, API_REQUESTS_MINUTE: 12 },
      now,
    );
    expect(report).toEqual({
      tier: { code: 'CORE', name: 'Core' },
      limits: {
        MAX_ACTIVE_PRODUCTS: { current: 120, limit: null, unlimited: true },
        MAX_CONNECTIONS: { current: 4, limit: null, unlimited: true },
        MAX_USERS: { current: 7, limit: 25, unlimited: false },
        MAX_TRACED_PRODUCTS: { current: 0, limit: 10_000, unlimited: false },
        BULK_UPLOAD_ROWS_MONTH: { current: 2_500, limit: 100_000, unlimited: false },
      },
      rateLimits: {
        API_REQUESTS_DAY: { current: 1_234, limit: 50_000, resetsAt: '2026-11-16T00:00:00.000Z' },
        API_REQUESTS_MINUTE: { current: 12, limit: 500, resetsAt: '2026-11-15T12:35:00.000Z' },
      },
      warnings: [],
    });
  });

  it('shows no API windows for a tier without API access', () => {
    const report = buildUsageReport(TIERS.SUPPLIER_FREE, {}, { API_REQUESTS_DAY: 5 }, now);
    expect(report.tier).toEqual({ code: 'SUPPLIER_FREE', name: 'Supplier Free' });
    expect(report.rateLimits).toEqual({});
  });

  it.each([...TIER_CODES])('reports every limit key of %s with its catalogue ceiling', (code) => {
    const report = buildUsageReport(TIERS[code], {}, {}, now);
    for (const [key, entry] of Object.entries(report.limits)) {
      expect(entry.limit).toBe(TIERS[code].limits[key as keyof typeof report.limits]);
      expect(entry.unlimited).toBe(entry.limit === null);
      expect(entry.current).toBe(0);
    }
    expect(Object.keys(report.limits)).toHaveLength(5);
  });

  it('warns about resource limits and the daily API window, never the minute window', () => {
    const report = buildUsageReport(
      TIERS.SUPPLIER_PLUS,
      { MAX_CONNECTIONS: 15, MAX_ACTIVE_PRODUCTS: 4_000 },
      { API_REQUESTS_DAY: 9_000, API_REQUESTS_MINUTE: 100 },
      now,
    );
    expect(report.warnings.map((w) => [w.limit, w.level])).toEqual([
      ['MAX_CONNECTIONS', 'REACHED'],
      ['MAX_ACTIVE_PRODUCTS', 'APPROACHING'],
      ['API_REQUESTS_DAY', 'APPROACHING'],
    ]);
  });

  it('rejects an invalid clock and corrupt counts', () => {
    expect(() => buildUsageReport(TIERS.CORE, {}, {}, new Date(Number.NaN))).toThrow(
      withCode('INVALID_TIMESTAMP'),
    );
    expect(() => buildUsageReport(TIERS.CORE, { MAX_USERS: -2 }, {}, now)).toThrow(
      withCode('INVALID_USAGE_COUNT'),
    );
    expect(() => buildUsageReport(TIERS.CORE, {}, { API_REQUESTS_DAY: 1.5 }, now)).toThrow(
      withCode('INVALID_USAGE_COUNT'),
    );
  });
});
