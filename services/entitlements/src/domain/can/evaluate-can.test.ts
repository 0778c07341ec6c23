import { describe, expect, it } from '@jest/globals';
import { TIERS } from '../catalogue/tiers.js';
import { CAN_ACTIONS } from './can-actions.js';
import { evaluateCan } from './evaluate-can.js';

const withCode = (code: string) => expect.objectContaining({ code });

describe('evaluateCan', () => {
  it('refuses a bulk upload above the rows left this month, with the rows left as available', () => {
    const decision = evaluateCan(TIERS.SUPPLIER_FREE, { BULK_UPLOAD_ROWS_MONTH: 700 }, 'BULK_UPLOAD', 500);
    expect(decision).toEqual({
      allowed: false,
      reason: 'LIMIT_EXCEEDED',
      details: { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 700, requested: 500, available: 300 },
    });
  });

  it('allows a bulk upload that uses exactly the rows left, with a null reason and no details', () => {
    const decision = evaluateCan(TIERS.SUPPLIER_FREE, { BULK_UPLOAD_ROWS_MONTH: 700 }, 'BULK_UPLOAD', 300);
    expect(decision).toEqual({ allowed: true, reason: null });
    expect(decision).not.toHaveProperty('details');
  });

  it.each([
    ['CREATE_PRODUCT', 'MAX_ACTIVE_PRODUCTS', 1_000],
    ['CREATE_CONNECTION', 'MAX_CONNECTIONS', 3],
    ['INVITE_USER', 'MAX_USERS', 3],
    ['BULK_UPLOAD', 'BULK_UPLOAD_ROWS_MONTH', 1_000],
  ] as const)('checks %s against %s (%i on Supplier Free)', (action, limit, ceiling) => {
    expect(CAN_ACTIONS[action].limit).toBe(limit);
    expect(evaluateCan(TIERS.SUPPLIER_FREE, { [limit]: ceiling - 1 }, action, 1).allowed).toBe(true);
    expect(evaluateCan(TIERS.SUPPLIER_FREE, { [limit]: ceiling }, action, 1)).toEqual({
      allowed: false,
      reason: 'LIMIT_EXCEEDED',
      details: { limit, current: ceiling, requested: 1, available: 0 },
    });
  });

  it('checks TRACE_PRODUCT against MAX_TRACED_PRODUCTS once the tier has traceability', () => {
    expect(evaluateCan(TIERS.CORE, { MAX_TRACED_PRODUCTS: 9_999 }, 'TRACE_PRODUCT', 1).allowed).toBe(true);
    const refused = evaluateCan(TIERS.CORE, { MAX_TRACED_PRODUCTS: 9_999 }, 'TRACE_PRODUCT', 2);
    expect(refused).toMatchObject({
      reason: 'LIMIT_EXCEEDED',
      details: { limit: 'MAX_TRACED_PRODUCTS', available: 1 },
    });
  });

  it('names the missing capability rather than the zero limit behind it', () => {
    expect(evaluateCan(TIERS.SUPPLIER_PLUS, {}, 'TRACE_PRODUCT', 1)).toEqual({
      allowed: false,
      reason: 'CAPABILITY_NOT_IN_TIER',
    });
  });

  it('allows any amount where the tier is unlimited', () => {
    const huge = Number.MAX_SAFE_INTEGER;
    expect(evaluateCan(TIERS.CORE, { MAX_ACTIVE_PRODUCTS: huge }, 'CREATE_PRODUCT', 1).allowed).toBe(true);
    expect(evaluateCan(TIERS.ENTERPRISE, {}, 'BULK_UPLOAD', huge).allowed).toBe(true);
  });

  it('treats a missing count as zero', () => {
    expect(evaluateCan(TIERS.SUPPLIER_FREE, {}, 'CREATE_CONNECTION', 3).allowed).toBe(true);
  });

  it('answers a count of zero as a probe: yes within the limit, no once over it', () => {
    expect(evaluateCan(TIERS.SUPPLIER_FREE, { MAX_CONNECTIONS: 3 }, 'CREATE_CONNECTION', 0).allowed).toBe(
      true,
    );
    expect(evaluateCan(TIERS.SUPPLIER_FREE, { MAX_CONNECTIONS: 5 }, 'CREATE_CONNECTION', 0)).toEqual({
      allowed: false,
      reason: 'LIMIT_EXCEEDED',
      details: { limit: 'MAX_CONNECTIONS', current: 5, requested: 0, available: 0 },
    });
  });

  it('never reports a negative availability after a downgrade left the tenant over the limit', () => {
    const decision = evaluateCan(TIERS.SUPPLIER_FREE, { MAX_ACTIVE_PRODUCTS: 4_000 }, 'CREATE_PRODUCT', 1);
    expect(decision).toMatchObject({ details: { current: 4_000, available: 0 } });
  });

  it.each(['', 'bulk_upload', 'DELETE_PRODUCT', 'toString', 'constructor', '__proto__'])(
    'rejects action %j as UNKNOWN_ACTION',
    (action) => {
      expect(() => evaluateCan(TIERS.CORE, {}, action, 1)).toThrow(withCode('UNKNOWN_ACTION'));
    },
  );

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '3', null, undefined])(
    'rejects resource count %p as INVALID_RESOURCE_COUNT',
    (count) => {
      const call = () => evaluateCan(TIERS.CORE, {}, 'BULK_UPLOAD', count as number);
      expect(call).toThrow(withCode('INVALID_RESOURCE_COUNT'));
    },
  );

  it('validates the action before the count', () => {
    expect(() => evaluateCan(TIERS.CORE, {}, 'NOPE', -1)).toThrow(withCode('UNKNOWN_ACTION'));
  });

  it.each([-1, 0.5, Number.NaN])('rejects a corrupt stored count %p as INVALID_USAGE_COUNT', (count) => {
    const call = () => evaluateCan(TIERS.CORE, { MAX_USERS: count }, 'INVITE_USER', 1);
    expect(call).toThrow(withCode('INVALID_USAGE_COUNT'));
  });
});
