import { describe, expect, it } from '@jest/globals';
import { buildWarnings, warningFor } from './usage-warnings.js';

describe('usage warnings', () => {
  it('stays quiet below 80% of a limit', () => {
    expect(warningFor({ limit: 'MAX_ACTIVE_PRODUCTS', current: 799, max: 1_000 })).toBeNull();
  });

  it('warns APPROACHING from 80% of a limit', () => {
    expect(warningFor({ limit: 'MAX_ACTIVE_PRODUCTS', current: 800, max: 1_000 })).toEqual({
      limit: 'MAX_ACTIVE_PRODUCTS',
      level: 'APPROACHING',
      current: 800,
      max: 1_000,
      percentUsed: 80,
      message: 'You have used 80% of your limit of 1,000 active products.',
    });
  });

  it('warns REACHED at the limit', () => {
    expect(warningFor({ limit: 'MAX_CONNECTIONS', current: 3, max: 3 })).toEqual({
      limit: 'MAX_CONNECTIONS',
      level: 'REACHED',
      current: 3,
      max: 3,
      percentUsed: 100,
      message: 'You have reached your limit of 3 connections.',
    });
  });

  it('says so when a downgrade left the tenant over the limit', () => {
    const warning = warningFor({ limit: 'MAX_USERS', current: 12, max: 10 });
    expect(warning).toMatchObject({ level: 'REACHED', percentUsed: 120 });
    expect(warning?.message).toBe('You are over your limit of 10 users (12 counted).');
  });

  it('never warns about unlimited keys or about a ceiling of zero', () => {
    expect(warningFor({ limit: 'MAX_CONNECTIONS', current: 10_000, max: null })).toBeNull();
    expect(warningFor({ limit: 'MAX_TRACED_PRODUCTS', current: 0, max: 0 })).toBeNull();
  });

  it('lists REACHED warnings before APPROACHING ones, otherwise in input order', () => {
    const warnings = buildWarnings([
      { limit: 'MAX_ACTIVE_PRODUCTS', current: 900, max: 1_000 },
      { limit: 'MAX_CONNECTIONS', current: 1, max: 3 },
      { limit: 'MAX_USERS', current: 3, max: 3 },
      { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 850, max: 1_000 },
    ]);
    expect(warnings.map((w) => [w.limit, w.level])).toEqual([
      ['MAX_USERS', 'REACHED'],
      ['MAX_ACTIVE_PRODUCTS', 'APPROACHING'],
      ['BULK_UPLOAD_ROWS_MONTH', 'APPROACHING'],
    ]);
  });
});
