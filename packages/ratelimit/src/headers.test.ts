import { describe, expect, it } from '@jest/globals';
import type { RateLimitDecision } from './decision.js';
import { rateLimitHeaders, resetSeconds } from './headers.js';

const decision = (overrides: Partial<RateLimitDecision>): RateLimitDecision => ({
  allowed: true,
  limit: 100,
  remaining: 42,
  resetAt: 1_700_000_000_001,
  retryAfter: 0,
  policy: 'api-per-minute',
  at: 1_699_999_990_000,
  source: 'redis',
  windows: [],
  ...overrides,
});

describe('rate-limit headers', () => {
  it('gives limit, remaining, reset as Unix seconds rounded up, and the policy, without Retry-After when admitted', () => {
    expect(rateLimitHeaders(decision({}))).toEqual({
      'X-RateLimit-Limit': '100',
      'X-RateLimit-Remaining': '42',
      'X-RateLimit-Reset': '1700000001',
      'X-RateLimit-Policy': 'api-per-minute',
    });
  });

  it('adds Retry-After in whole seconds on a refusal', () => {
    const headers = rateLimitHeaders(
      decision({ allowed: false, remaining: 0, retryAfter: 17, policy: 'login-per-ip' }),
    );
    expect(headers['Retry-After']).toBe('17');
    expect(headers['X-RateLimit-Policy']).toBe('login-per-ip');
  });

  it('never rounds a reset down: a client waiting until then is not early', () => {
    expect(resetSeconds(1_000)).toBe(1);
    expect(resetSeconds(1_001)).toBe(2);
  });
});
