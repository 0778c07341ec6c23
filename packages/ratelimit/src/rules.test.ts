import { describe, expect, it } from '@jest/globals';
import { RATE_LIMIT_ERROR_CODES, RateLimitConfigError } from './errors.js';
import { counterKey, subjectTag } from './keys.js';
import { DEFAULT_SUB_WINDOWS, resolveRule, resolveRules, type LimitRule } from './rules.js';

const rule: LimitRule = { name: 'api-per-minute', limit: 100, windowMs: 60_000, onRedisDown: 'open' };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof RateLimitConfigError) return error.code;
    throw error;
  }
  return undefined;
}

describe('rules', () => {
  it('fill in the default sub-windows and derive an integer sub-window length', () => {
    expect(resolveRule(rule)).toEqual({ ...rule, subWindows: DEFAULT_SUB_WINDOWS, subWindowMs: 1_000 });
  });

  it('are refused, naming every problem at once, when malformed', () => {
    const bad = {
      name: 'bad name',
      limit: -1,
      windowMs: 1_000,
      subWindows: 7,
      onRedisDown: 'maybe',
    } as unknown as LimitRule;
    try {
      resolveRule(bad);
      throw new Error('expected a RateLimitConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(RateLimitConfigError);
      const message = (error as RateLimitConfigError).message;
      for (const field of ['name', 'limit', 'windowMs', 'onRedisDown']) expect(message).toContain(field);
    }
  });

  it('of one check must be 1 to 16 with distinct names', () => {
    expect(codeOf(() => resolveRules([]))).toBe('RATE_LIMIT_INVALID_RULES');
    expect(codeOf(() => resolveRules([rule, { ...rule, limit: 5 }]))).toBe('RATE_LIMIT_INVALID_RULES');
    expect(
      codeOf(() => resolveRules(Array.from({ length: 17 }, (_, i) => ({ ...rule, name: `r${i}` })))),
    ).toBe('RATE_LIMIT_INVALID_RULES');
    expect(
      resolveRules([rule, { ...rule, name: 'api-per-day', windowMs: 86_400_000, subWindows: 24 }]),
    ).toHaveLength(2);
  });

  it('have an UPPER_SNAKE error catalogue', () => {
    for (const code of RATE_LIMIT_ERROR_CODES) expect(code).toMatch(/^RATE_LIMIT(_[A-Z]+)+$/);
  });
});

describe('keys', () => {
  it('put the subject in one hash tag, with its braces and percent signs encoded', () => {
    expect(subjectTag('tenant-1')).toBe('{tenant-1}');
    expect(subjectTag('a}b{c%')).toBe('{a%7Db%7Bc%25}');
    // Encoding is injective: a subject that looks like an encoding stays distinct.
    expect(subjectTag('a%7Db')).not.toBe(subjectTag('a}b'));
  });

  it('carry the prefix, the rule and its geometry', () => {
    expect(counterKey('rl', 'tenant-1', resolveRule(rule))).toBe('rl:{tenant-1}:api-per-minute:60000/60');
  });

  it('refuse empty or overlong subjects', () => {
    expect(codeOf(() => subjectTag(''))).toBe('RATE_LIMIT_INVALID_SUBJECT');
    expect(codeOf(() => subjectTag('x'.repeat(513)))).toBe('RATE_LIMIT_INVALID_SUBJECT');
  });
});
