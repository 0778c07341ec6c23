import { describe, expect, it } from '@jest/globals';
import { isFutureDateTime, parseZonedDateTime } from './formats.js';

const NOW = Date.parse('2026-06-01T00:00:00Z');

describe('future-date-time', () => {
  it.each([
    ['2099-09-30T00:00:00.000Z'],
    ['2026-06-01T00:00:01Z'],
    ['2030-01-01T12:00:00+02:00'],
    ['2030-02-28T23:59:59.123456789-11:30'],
  ])('accepts %s', (text) => {
    expect(isFutureDateTime(text, NOW)).toBe(true);
  });

  it.each([
    ['2026-06-01T00:00:00Z', 'now is not later than now'],
    ['2020-01-01T00:00:00Z', 'the past'],
    ['2030-02-30T00:00:00Z', 'an impossible day'],
    ['2030-01-01T24:00:00Z', 'hour 24'],
    ['2030-01-01T12:00Z', 'no seconds'],
    ['2030-01-01T12:00:00', 'no zone'],
    ['2030-01-01T12:00:00+24:00', 'an offset out of range'],
    ['2030-01-01', 'a bare date'],
    ['soon', 'no date at all'],
  ])('refuses %s (%s)', (text) => {
    expect(isFutureDateTime(text, NOW)).toBe(false);
  });

  it('reads the zone', () => {
    expect(parseZonedDateTime('2030-01-01T02:00:00+02:00')).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });
});
