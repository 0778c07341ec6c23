import { describe, expect, it } from '@jest/globals';
import { entitlementErrors } from '../errors.js';
import { dayOf } from './history-dates.js';
import { parseHistoryQuery, type HistoryQueryInput } from './history-query.js';
import { buildHistorySeries } from './history-series.js';

const NOW = new Date('2026-03-10T08:00:00.000Z');
const days = (input: HistoryQueryInput) => {
  const query = parseHistoryQuery(input, NOW);
  return { ...query, from: dayOf(query.from), to: dayOf(query.to) };
};

describe('parseHistoryQuery', () => {
  it('defaults to the last 30 days, or the 13 months kept for months', () => {
    expect(days({ key: 'MAX_USERS' })).toEqual({
      key: 'MAX_USERS',
      granularity: 'day',
      from: '2026-02-09',
      to: '2026-03-10',
    });
    expect(days({ key: 'MAX_USERS', granularity: 'month' })).toMatchObject({ from: '2025-03-01' });
  });

  it('never defaults to a day before the oldest kept', () => {
    expect(days({ key: 'MAX_USERS', to: '2025-03-05' })).toMatchObject({
      from: '2025-03-01',
      to: '2025-03-05',
    });
  });

  it('reads a month as its first day for from and its last (today at most) for to', () => {
    expect(days({ key: 'MAX_USERS', from: '2026-02', to: '2026-02' })).toMatchObject({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(days({ key: 'MAX_USERS', to: '2026-03' })).toMatchObject({ to: '2026-03-10' });
  });

  it('names the field it refuses', () => {
    const fieldOf = (input: HistoryQueryInput) => {
      try {
        parseHistoryQuery(input, NOW);
      } catch (error) {
        if (entitlementErrors.is(error, 'INVALID_HISTORY_QUERY')) return error.details?.['field'];
      }
      return undefined;
    };
    expect(fieldOf({ key: 'API_REQUESTS_MINUTE' })).toBe('key');
    expect(fieldOf({ key: 'MAX_USERS', from: '2025-02-28' })).toBe('from');
    expect(fieldOf({ key: 'MAX_USERS', to: '2026-03-11' })).toBe('to');
    expect(fieldOf({ key: 'MAX_USERS', from: '2026-03-02', to: '2026-03-01' })).toBe('from');
    expect(fieldOf({ key: 'MAX_USERS', from: '2026-3-1' })).toBe('from');
  });
});

describe('buildHistorySeries', () => {
  it('reads a gauge with no point in the months kept as the live value on every day', () => {
    const query = parseHistoryQuery({ key: 'MAX_USERS', from: '2026-03-08' }, NOW);
    expect(buildHistorySeries(query, [], 4, NOW).map((p) => p.value)).toEqual([4, 4, 4]);
  });

  it("reads the days before a month's first point as its opening", () => {
    const query = parseHistoryQuery({ key: 'MAX_USERS', from: '2026-02-27', to: '2026-03-09' }, NOW);
    const months = [{ month: '2026-03', opening: { MAX_USERS: 2 }, days: { '05': { MAX_USERS: 3 } } }];
    const values = buildHistorySeries(query, months, 9, NOW).map((p) => p.value);
    expect(values).toEqual([2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3]);
  });
});
