import { describe, expect, it } from '@jest/globals';
import {
  DEFAULT_RETRY_SCHEDULE_MS,
  decodeCursor,
  encodeCursor,
  nextAttemptAt,
  notificationErrors,
  shouldDisable,
} from './index.js';

describe('the retry schedule', () => {
  it('spreads the default over about a day', () => {
    const total = DEFAULT_RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(20 * 3_600_000);
    expect(total).toBeLessThan(26 * 3_600_000);
  });

  it('waits the n-th step after the n-th failure and gives up after the last', () => {
    const at = new Date('2026-01-01T00:00:00Z');
    expect(nextAttemptAt(at, 1, [10, 20])?.getTime()).toBe(at.getTime() + 10);
    expect(nextAttemptAt(at, 2, [10, 20])?.getTime()).toBe(at.getTime() + 20);
    expect(nextAttemptAt(at, 3, [10, 20])).toBeNull();
  });

  it('disables an endpoint only after it has failed for the whole period', () => {
    const now = new Date('2026-01-04T00:00:00Z');
    expect(shouldDisable(null, now, 1_000)).toBe(false);
    expect(shouldDisable(new Date(now.getTime() - 999), now, 1_000)).toBe(false);
    expect(shouldDisable(new Date(now.getTime() - 1_000), now, 1_000)).toBe(true);
  });
});

describe('the feed cursor', () => {
  it('round-trips a position', () => {
    expect(decodeCursor(encodeCursor('0123456789abcdef01234567'))).toBe('0123456789abcdef01234567');
  });

  it.each([
    '',
    'abc',
    '!!!',
    'a'.repeat(65),
    Buffer.from('c1:zz').toString('base64url'),
    Buffer.from('c2:0123456789abcdef01234567').toString('base64url'),
  ])('refuses %j', (cursor) => {
    expect(() => decodeCursor(cursor)).toThrow();
    try {
      decodeCursor(cursor);
    } catch (error) {
      expect(notificationErrors.is(error, 'CURSOR_INVALID')).toBe(true);
    }
  });
});
