import { describe, expect, it } from '@jest/globals';
import {
  dayWindowResetsAt,
  minuteWindowResetsAt,
  monthlyPeriod,
  monthlyResetsAt,
  parseTimestamp,
  rateWindowResetsAt,
} from './periods.js';

const at = (iso: string) => new Date(iso);
const withCode = (code: string) => expect.objectContaining({ code });

describe('monthly boundary', () => {
  it('names the UTC calendar month as YYYY-MM', () => {
    expect(monthlyPeriod(at('2026-11-15T12:00:00Z'))).toBe('2026-11');
    expect(monthlyPeriod(at('2026-01-01T00:00:00Z'))).toBe('2026-01');
  });

  it('uses UTC, not the zone of the caller', () => {
    expect(monthlyPeriod(at('2026-11-30T23:30:00-05:00'))).toBe('2026-12');
    expect(monthlyPeriod(at('2026-12-01T00:30:00+02:00'))).toBe('2026-11');
  });

  it('starts the new month at exactly midnight UTC on the first', () => {
    expect(monthlyPeriod(at('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthlyPeriod(at('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
  });

  it('resets monthly counters at the start of the next UTC month, across a year end', () => {
    expect(monthlyResetsAt(at('2026-11-15T12:00:00Z'))).toBe('2026-12-01T00:00:00.000Z');
    expect(monthlyResetsAt(at('2026-12-31T23:59:59.999Z'))).toBe('2027-01-01T00:00:00.000Z');
    expect(monthlyResetsAt(at('2028-02-29T10:00:00Z'))).toBe('2028-03-01T00:00:00.000Z');
  });

  it('resets at the next month even when asked exactly at a boundary', () => {
    expect(monthlyResetsAt(at('2026-12-01T00:00:00.000Z'))).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('rate-limit windows', () => {
  it('resets the day window at the next UTC midnight', () => {
    expect(dayWindowResetsAt(at('2026-11-15T12:34:56Z'))).toBe('2026-11-16T00:00:00.000Z');
    expect(dayWindowResetsAt(at('2026-11-15T00:00:00Z'))).toBe('2026-11-16T00:00:00.000Z');
    expect(rateWindowResetsAt('API_REQUESTS_DAY', at('2026-12-31T23:59:59Z'))).toBe(
      '2027-01-01T00:00:00.000Z',
    );
  });

  it('resets the minute window at the next whole UTC minute', () => {
    expect(minuteWindowResetsAt(at('2026-11-15T12:34:56.789Z'))).toBe('2026-11-15T12:35:00.000Z');
    expect(rateWindowResetsAt('API_REQUESTS_MINUTE', at('2026-11-15T12:34:00Z'))).toBe(
      '2026-11-15T12:35:00.000Z',
    );
  });
});

describe('bad clocks and timestamps', () => {
  it.each([monthlyPeriod, monthlyResetsAt, dayWindowResetsAt, minuteWindowResetsAt])(
    'rejects an invalid date as INVALID_TIMESTAMP (%p)',
    (fn) => {
      expect(() => fn(new Date('not a date'))).toThrow(withCode('INVALID_TIMESTAMP'));
    },
  );

  it('parses ISO timestamps and rejects garbage', () => {
    expect(parseTimestamp('2026-11-15T12:00:00Z', 'occurredAt').toISOString()).toBe(
      '2026-11-15T12:00:00.000Z',
    );
    expect(() => parseTimestamp('yesterday', 'occurredAt')).toThrow(withCode('INVALID_TIMESTAMP'));
  });
});
