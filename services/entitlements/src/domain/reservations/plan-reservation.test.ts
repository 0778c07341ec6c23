import { describe, expect, it } from '@jest/globals';
import { TIERS } from '../catalogue/tiers.js';
import { planReservation, resolveUnmatchedReservation } from './plan-reservation.js';
import { DEFAULT_RESERVATION_TTL_MS, MAX_RESERVATION_TTL_MS } from './reservation.js';
import type { ReservationRequest } from './reservation.js';

const now = new Date('2026-11-30T23:50:00.000Z');
const withCode = (code: string) => expect.objectContaining({ code });
const request = (overrides: Partial<ReservationRequest> = {}): ReservationRequest => ({
  action: 'BULK_UPLOAD',
  units: 400,
  idempotencyKey: 'import-1',
  ...overrides,
});

describe('planReservation', () => {
  it('plans one conditional update: used may be at most limit − units before the increment', () => {
    const plan = planReservation(TIERS.SUPPLIER_FREE, request(), now);
    expect(plan).toEqual({
      kind: 'ATTEMPT',
      reservation: {
        idempotencyKey: 'import-1',
        action: 'BULK_UPLOAD',
        counter: 'BULK_UPLOAD_ROWS_MONTH',
        period: '2026-11',
        units: 400,
        consumedUnits: 0,
        state: 'HELD',
        createdAt: '2026-11-30T23:50:00.000Z',
        expiresAt: new Date(now.getTime() + DEFAULT_RESERVATION_TTL_MS).toISOString(),
        settledAt: null,
      },
      guard: { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', maxUsedBefore: 600 },
      delta: { counter: 'BULK_UPLOAD_ROWS_MONTH', period: '2026-11', delta: 400, heldDelta: 400 },
    });
  });

  it('reserves a gauge without a period, and without a condition where the tier is unlimited', () => {
    const gauge = planReservation(TIERS.SUPPLIER_FREE, request({ action: 'INVITE_USER', units: 1 }), now);
    expect(gauge).toMatchObject({ guard: { counter: 'MAX_USERS', maxUsedBefore: 2 } });
    expect(gauge.kind === 'ATTEMPT' && gauge.reservation.period).toBeNull();
    expect(gauge.kind === 'ATTEMPT' && 'period' in gauge.guard).toBe(false);
    const unlimited = planReservation(TIERS.CORE, request({ action: 'CREATE_PRODUCT', units: 10 }), now);
    expect(unlimited).toMatchObject({ guard: { maxUsedBefore: null } });
  });

  it('honours a requested lifetime', () => {
    const plan = planReservation(TIERS.CORE, request({ ttlMs: MAX_RESERVATION_TTL_MS }), now);
    expect(plan.kind === 'ATTEMPT' && plan.reservation.expiresAt).toBe('2026-12-01T23:50:00.000Z');
  });

  it('skips the write when it cannot succeed: capability missing, or more units than the ceiling', () => {
    expect(planReservation(TIERS.SUPPLIER_FREE, request({ action: 'TRACE_PRODUCT', units: 1 }), now)).toEqual(
      {
        kind: 'RESOLVE',
      },
    );
    expect(planReservation(TIERS.SUPPLIER_FREE, request({ units: 1_001 }), now)).toEqual({ kind: 'RESOLVE' });
  });

  it.each([
    [{ action: 'FLY' }, 'UNKNOWN_ACTION'],
    [{ units: 0 }, 'INVALID_RESOURCE_COUNT'],
    [{ units: -3 }, 'INVALID_RESOURCE_COUNT'],
    [{ units: 1.5 }, 'INVALID_RESOURCE_COUNT'],
    [{ idempotencyKey: '' }, 'INVALID_IDEMPOTENCY_KEY'],
    [{ idempotencyKey: 'a.b' }, 'INVALID_IDEMPOTENCY_KEY'],
    [{ idempotencyKey: '$set' }, 'INVALID_IDEMPOTENCY_KEY'],
    [{ idempotencyKey: 'k'.repeat(129) }, 'INVALID_IDEMPOTENCY_KEY'],
    [{ ttlMs: 999 }, 'INVALID_RESERVATION_TTL'],
    [{ ttlMs: MAX_RESERVATION_TTL_MS + 1 }, 'INVALID_RESERVATION_TTL'],
    [{ ttlMs: 1_500.5 }, 'INVALID_RESERVATION_TTL'],
  ] as const)('rejects %j as %s', (overrides, code) => {
    expect(() => planReservation(TIERS.CORE, request(overrides), now)).toThrow(withCode(code));
  });

  it('rejects an invalid clock', () => {
    expect(() => planReservation(TIERS.CORE, request(), new Date('nope'))).toThrow(
      withCode('INVALID_TIMESTAMP'),
    );
  });
});

describe('resolveUnmatchedReservation', () => {
  const plan = planReservation(TIERS.SUPPLIER_FREE, request(), now);
  if (plan.kind !== 'ATTEMPT') throw new Error('expected an attempt');
  const existing = plan.reservation;

  it('replays a key seen before with the same request, without counting it again', () => {
    expect(
      resolveUnmatchedReservation(
        TIERS.SUPPLIER_FREE,
        { BULK_UPLOAD_ROWS_MONTH: 1_000 },
        request(),
        existing,
      ),
    ).toEqual({ granted: true, replayed: true, reservation: existing });
  });

  it('refuses a key reused for a different request', () => {
    const call = () => resolveUnmatchedReservation(TIERS.SUPPLIER_FREE, {}, request({ units: 5 }), existing);
    expect(call).toThrow(withCode('IDEMPOTENCY_KEY_REUSED'));
  });

  it('denies with the can details when the limit refused', () => {
    const outcome = resolveUnmatchedReservation(
      TIERS.SUPPLIER_FREE,
      { BULK_UPLOAD_ROWS_MONTH: 700 },
      request(),
      undefined,
    );
    expect(outcome).toEqual({
      granted: false,
      decision: {
        allowed: false,
        reason: 'LIMIT_EXCEEDED',
        details: { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 700, requested: 400, available: 300 },
      },
    });
  });

  it('denies for a missing capability', () => {
    const trace = request({ action: 'TRACE_PRODUCT', units: 1 });
    expect(resolveUnmatchedReservation(TIERS.SUPPLIER_PLUS, {}, trace, undefined)).toEqual({
      granted: false,
      decision: { allowed: false, reason: 'CAPABILITY_NOT_IN_TIER' },
    });
  });

  it('asks for a retry when the counter now has room (it moved between write and read)', () => {
    expect(
      resolveUnmatchedReservation(TIERS.SUPPLIER_FREE, { BULK_UPLOAD_ROWS_MONTH: 100 }, request(), undefined),
    ).toEqual({ retry: true });
  });
});
