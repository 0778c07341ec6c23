import { describe, expect, it } from '@jest/globals';
import { decide, type WindowState } from './decision.js';

const window = (overrides: Partial<WindowState>): WindowState => ({
  policy: 'w',
  limit: 10,
  windowMs: 60_000,
  used: 0,
  remaining: 10,
  resetAt: 1_000,
  fits: true,
  retryAt: 1_000,
  source: 'redis',
  ...overrides,
});

describe('decide', () => {
  it('when admitted, binds the window with the least remaining, the later reset breaking a tie', () => {
    const a = window({ policy: 'a', remaining: 5, resetAt: 2_000 });
    const b = window({ policy: 'b', remaining: 3, resetAt: 3_000 });
    const c = window({ policy: 'c', remaining: 3, resetAt: 9_000 });
    expect(decide([a, b, c], 1_000, 'redis')).toMatchObject({
      allowed: true,
      policy: 'c',
      remaining: 3,
      resetAt: 9_000,
      retryAfter: 0,
    });
  });

  it('when refused, binds the refusing window that refuses longest, and takes Retry-After from it', () => {
    const open = window({ policy: 'roomy', remaining: 0 });
    const soon = window({ policy: 'soon', fits: false, remaining: 0, retryAt: 3_500 });
    const late = window({ policy: 'late', fits: false, remaining: 1, limit: 50, retryAt: 61_000 });
    expect(decide([open, soon, late], 1_000, 'redis')).toMatchObject({
      allowed: false,
      policy: 'late',
      limit: 50,
      retryAfter: 60,
    });
  });

  it('rounds Retry-After up, to at least 1 second', () => {
    expect(decide([window({ fits: false, retryAt: 1_001 })], 1_000, 'redis').retryAfter).toBe(1);
    expect(decide([window({ fits: false, retryAt: 1_000 })], 1_000, 'redis').retryAfter).toBe(1);
    expect(decide([window({ fits: false, retryAt: 3_001 })], 1_000, 'redis').retryAfter).toBe(3);
  });

  it('binds a window that can never fit over any other, with its length as Retry-After', () => {
    const never = window({ policy: 'never', fits: false, retryAt: null, windowMs: 86_400_000 });
    const later = window({ policy: 'later', fits: false, retryAt: 500_000 });
    expect(decide([later, never], 1_000, 'redis')).toMatchObject({ policy: 'never', retryAfter: 86_400 });
  });

  it('carries the failure of a fallback decision', () => {
    expect(decide([window({})], 5, 'fallback', { code: 'REDIS_TIMEOUT' })).toMatchObject({
      source: 'fallback',
      failure: { code: 'REDIS_TIMEOUT' },
    });
    expect(decide([window({})], 5, 'redis')).not.toHaveProperty('failure');
  });
});
