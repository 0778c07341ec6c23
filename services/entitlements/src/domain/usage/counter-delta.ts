import type { LimitKey } from '../catalogue/keys.js';
import { isMonthlyLimit } from '../catalogue/keys.js';
import { monthlyPeriod } from './periods.js';

/**
 * A change the store applies to one usage counter in one atomic update (`$inc`). A counter
 * holds `used` (units counted, including units held by open reservations) and `held` (the
 * part of `used` still held by reservations). Neither may go below zero: the store applies a
 * decrement only while the field is at least its size (`$gte`), which for the ±1 gauges is the
 * same as clamping at zero.
 */
export interface CounterDelta {
  readonly counter: LimitKey;
  /** Monthly counters only: the UTC month (`YYYY-MM`) the units belong to. */
  readonly period?: string;
  /** Increment of `used`. */
  readonly delta: number;
  /** Increment of `held`; absent means 0. */
  readonly heldDelta?: number;
}

/** The two fields of a usage counter. */
export interface CounterState {
  readonly used: number;
  readonly held: number;
}

/** The reference semantics of applying a delta: both fields clamped at zero. */
export function applyCounterDelta(state: CounterState, change: CounterDelta): CounterState {
  return {
    used: Math.max(0, state.used + change.delta),
    held: Math.max(0, state.held + (change.heldDelta ?? 0)),
  };
}

/** The period a unit of `counter` counted at `at` belongs to; undefined for gauges. */
export function counterPeriod(counter: LimitKey, at: Date): string | undefined {
  return isMonthlyLimit(counter) ? monthlyPeriod(at) : undefined;
}

/** A delta for `counter`, with its period when it is monthly (the key is omitted otherwise). */
export function counterDelta(counter: LimitKey, period: string | undefined, delta: number): CounterDelta {
  return period === undefined ? { counter, delta } : { counter, period, delta };
}
