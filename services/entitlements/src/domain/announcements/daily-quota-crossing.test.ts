import { describe, expect, it } from '@jest/globals';
import { TIERS } from '../catalogue/tiers.js';
import { mayCrossDailyQuotaThreshold } from './daily-quota-crossing.js';

const enterpriseDay = TIERS.ENTERPRISE.rateLimits.API_REQUESTS_DAY;

describe('which moves of a day count may cross a daily quota threshold', () => {
  it('a move within one level of every tier says no', () => {
    expect(mayCrossDailyQuotaThreshold(10, 11)).toBe(false);
    expect(mayCrossDailyQuotaThreshold(10, 10)).toBe(false);
  });

  it('reaching 80% or 100% of any tier says yes, for every tier with a quota', () => {
    for (const tier of Object.values(TIERS)) {
      const limit = tier.rateLimits.API_REQUESTS_DAY;
      if (limit <= 0) continue;
      const eighty = Math.ceil(limit * 0.8);
      expect(mayCrossDailyQuotaThreshold(eighty - 1, eighty)).toBe(true);
      expect(mayCrossDailyQuotaThreshold(limit - 1, limit)).toBe(true);
      // A jump past both thresholds at once is a crossing too.
      expect(mayCrossDailyQuotaThreshold(0, limit * 2)).toBe(true);
    }
    expect(mayCrossDailyQuotaThreshold(enterpriseDay - 1, enterpriseDay)).toBe(true);
  });

  it("an unknown previous count (a restart, a new day) says yes only past some tier's first threshold", () => {
    const lowest = Math.min(
      ...Object.values(TIERS)
        .map((tier) => tier.rateLimits.API_REQUESTS_DAY)
        .filter((limit) => limit > 0),
    );
    expect(mayCrossDailyQuotaThreshold(undefined, 1)).toBe(false);
    expect(mayCrossDailyQuotaThreshold(undefined, Math.ceil(lowest * 0.8) - 1)).toBe(false);
    expect(mayCrossDailyQuotaThreshold(undefined, Math.ceil(lowest * 0.8))).toBe(true);
    expect(mayCrossDailyQuotaThreshold(undefined, enterpriseDay * 3)).toBe(true);
  });
});
