import { describe, expect, it } from '@jest/globals';
import { backOffDelayMs, retryAfterMs } from './back-off.js';

const NOW = Date.parse('2026-11-23T12:00:00Z');

describe('retryAfterMs', () => {
  it('reads delta-seconds and an HTTP-date, and nothing else', () => {
    expect(retryAfterMs('7', NOW)).toBe(7_000);
    expect(retryAfterMs(' 0 ', NOW)).toBe(0);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:05 GMT', NOW)).toBe(5_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', NOW)).toBe(0);
    expect(retryAfterMs(null, NOW)).toBeUndefined();
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
    expect(retryAfterMs('-3', NOW)).toBeUndefined();
  });
});

describe('backOffDelayMs', () => {
  it('waits what Retry-After asks', () => {
    expect(backOffDelayMs(1, '3', NOW)).toBe(3_000);
    expect(backOffDelayMs(2, 'Mon, 23 Nov 2026 12:00:10 GMT', NOW)).toBe(10_000);
  });

  it('without Retry-After doubles from 1 s up to the cap', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((retry) =>
      backOffDelayMs(retry, null, NOW, { maxRetries: 6, maxDelayMs: 10_000 }),
    );
    expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('stops after maxRetries (3 by default)', () => {
    expect(backOffDelayMs(3, null, NOW)).toBe(4_000);
    expect(backOffDelayMs(4, null, NOW)).toBeUndefined();
    expect(backOffDelayMs(1, '1', NOW, { maxRetries: 0 })).toBeUndefined();
  });

  it('hands the 429 back rather than wait longer than the cap', () => {
    expect(backOffDelayMs(1, '31', NOW)).toBeUndefined();
    expect(backOffDelayMs(1, '30', NOW)).toBe(30_000);
  });
});
