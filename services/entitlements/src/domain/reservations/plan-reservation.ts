import { entitlementErrors } from '../errors.js';
import { CAN_ACTIONS, parseCanAction } from '../can/can-actions.js';
import type { CanAction, CanActionRule } from '../can/can-actions.js';
import { evaluateCan } from '../can/evaluate-can.js';
import type { CanDecision } from '../can/evaluate-can.js';
import type { LimitKey } from '../catalogue/keys.js';
import type { Tier } from '../catalogue/tier.js';
import { counterPeriod } from '../usage/counter-delta.js';
import type { CounterDelta } from '../usage/counter-delta.js';
import { assertValidDate } from '../usage/periods.js';
import { describeValue, isNonNegativeSafeInteger } from '../usage/usage-snapshot.js';
import type { UsageSnapshot } from '../usage/usage-snapshot.js';
import { assertIdempotencyKey } from './idempotency-key.js';
import { DEFAULT_RESERVATION_TTL_MS, MAX_RESERVATION_TTL_MS, MIN_RESERVATION_TTL_MS } from './reservation.js';
import type { Reservation, ReservationRequest } from './reservation.js';

/**
 * The condition of the one conditional update that reserves: apply only while the counter's
 * `used` (missing = 0) is at most `maxUsedBefore` = limit − units; null means no condition.
 */
export interface ReservationGuard {
  readonly counter: LimitKey;
  readonly period?: string;
  readonly maxUsedBefore: number | null;
}

/**
 * ATTEMPT: write `reservation` under its key and apply `delta`, in one update conditioned on
 * the key being absent and on `guard`. RESOLVE: the write cannot succeed (capability missing
 * or more units than the ceiling), so skip it. After RESOLVE or an unmatched ATTEMPT, read the
 * tenant's document and call `resolveUnmatchedReservation`.
 */
export type ReservationPlan =
  | {
      readonly kind: 'ATTEMPT';
      readonly reservation: Reservation;
      readonly guard: ReservationGuard;
      readonly delta: CounterDelta;
    }
  | { readonly kind: 'RESOLVE' };

/** The answer to a reserve call. */
export type ReservationOutcome =
  | { readonly granted: true; readonly replayed: boolean; readonly reservation: Reservation }
  | { readonly granted: false; readonly decision: Exclude<CanDecision, { allowed: true }> };

/** What to do after an unmatched write: answer with an outcome, or attempt again. */
export type ReservationResolution = ReservationOutcome | { readonly retry: true };

/** Validates a reserve request and plans its single conditional write. */
export function planReservation(tier: Tier, request: ReservationRequest, now: Date): ReservationPlan {
  const action = parseCanAction(request.action);
  const rule: CanActionRule = CAN_ACTIONS[action];
  if (!isNonNegativeSafeInteger(request.units) || request.units === 0) {
    throw entitlementErrors.create('INVALID_RESOURCE_COUNT', {
      details: { units: describeValue(request.units) },
    });
  }
  assertIdempotencyKey(request.idempotencyKey);
  const ttlMs = reservationTtl(request.ttlMs);
  assertValidDate(now);
  const ceiling = tier.limits[rule.limit];
  const lacksCapability = rule.capability !== null && !tier.capabilities[rule.capability];
  if (lacksCapability || (ceiling !== null && request.units > ceiling)) return { kind: 'RESOLVE' };
  const period = counterPeriod(rule.limit, now);
  const reservation = heldReservation(request, action, rule.limit, period ?? null, now, ttlMs);
  const maxUsedBefore = ceiling === null ? null : ceiling - request.units;
  const base = { counter: rule.limit, ...(period === undefined ? {} : { period }) };
  return {
    kind: 'ATTEMPT',
    reservation,
    guard: { ...base, maxUsedBefore },
    delta: { ...base, delta: request.units, heldDelta: request.units },
  };
}

/**
 * The answer after the conditional write did not apply. `usage` is the tenant's counters as
 * read afterwards. A key seen before answers as it did (IDEMPOTENCY_KEY_REUSED if the request
 * differs); otherwise the limit decides. `{ retry: true }` means the counter moved between the
 * write and the read: attempt again, a bounded number of times (3), then fail with
 * RESERVATION_CONTENDED.
 */
export function resolveUnmatchedReservation(
  tier: Tier,
  usage: UsageSnapshot,
  request: ReservationRequest,
  existing: Reservation | undefined,
): ReservationResolution {
  if (existing !== undefined) {
    if (existing.action !== request.action || existing.units !== request.units) {
      throw entitlementErrors.create('IDEMPOTENCY_KEY_REUSED', {
        details: { idempotencyKey: existing.idempotencyKey },
      });
    }
    return { granted: true, replayed: true, reservation: existing };
  }
  const decision = evaluateCan(tier, usage, request.action, request.units);
  return decision.allowed ? { retry: true } : { granted: false, decision };
}

function reservationTtl(ttlMs: number | undefined): number {
  if (ttlMs === undefined) return DEFAULT_RESERVATION_TTL_MS;
  if (!Number.isSafeInteger(ttlMs) || ttlMs < MIN_RESERVATION_TTL_MS || ttlMs > MAX_RESERVATION_TTL_MS) {
    throw entitlementErrors.create('INVALID_RESERVATION_TTL', { details: { ttlMs: describeValue(ttlMs) } });
  }
  return ttlMs;
}

function heldReservation(
  request: ReservationRequest,
  action: CanAction,
  counter: LimitKey,
  period: string | null,
  now: Date,
  ttlMs: number,
): Reservation {
  return {
    idempotencyKey: request.idempotencyKey,
    action,
    counter,
    period,
    units: request.units,
    consumedUnits: 0,
    state: 'HELD',
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ttlMs).toISOString(),
    settledAt: null,
  };
}
