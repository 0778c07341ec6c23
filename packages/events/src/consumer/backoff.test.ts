import { describe, expect, it } from '@jest/globals';
import { redeliveryDelayMs } from './backoff.js';

describe('redeliveryDelayMs', () => {
  const backoff = { initialMs: 500, maxMs: 4_000 };

  it('waits the initial delay after the first failed delivery and doubles after each one', () => {
    expect([1, 2, 3, 4].map((n) => redeliveryDelayMs(n, backoff))).toEqual([500, 1_000, 2_000, 4_000]);
  });

  it('never waits longer than the ceiling, however many deliveries failed', () => {
    expect(redeliveryDelayMs(5, backoff)).toBe(4_000);
    expect(redeliveryDelayMs(10_000, backoff)).toBe(4_000);
  });

  it('treats a delivery count below one as the first delivery', () => {
    expect(redeliveryDelayMs(0, backoff)).toBe(500);
  });
});
