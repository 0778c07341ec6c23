import type { CanAction } from '../can/can-actions.js';
import type { LimitKey } from '../catalogue/keys.js';

/** How long a reservation holds its units unless the caller asks otherwise: 15 minutes. */
export const DEFAULT_RESERVATION_TTL_MS = 15 * 60_000;

/** The shortest hold a caller may ask for: 1 second. */
export const MIN_RESERVATION_TTL_MS = 1_000;

/** The longest hold a caller may ask for: 24 hours (a long bulk import, not a lease). */
export const MAX_RESERVATION_TTL_MS = 24 * 60 * 60_000;

/** How long a finished reservation is kept after `expiresAt`, so retries replay it: 24 hours. */
export const RESERVATION_RETENTION_MS = 24 * 60 * 60_000;

/** HELD until consumed, released, or expired (released by the clean-up job). */
export type ReservationState = 'HELD' | 'CONSUMED' | 'RELEASED' | 'EXPIRED';

/**
 * Units of one limit held for an operation in flight, keyed by the caller's idempotency key
 * (unique per tenant). Timestamps are ISO 8601 UTC strings, which sort as text.
 */
export interface Reservation {
  readonly idempotencyKey: string;
  readonly action: CanAction;
  readonly counter: LimitKey;
  /** For a monthly counter, the UTC month the units were reserved in; null for gauges. */
  readonly period: string | null;
  /** Units held. */
  readonly units: number;
  /** Units counted when consumed (≤ units for a consume call); 0 until then. */
  readonly consumedUnits: number;
  readonly state: ReservationState;
  readonly createdAt: string;
  readonly expiresAt: string;
  /** When it left HELD; null while held. */
  readonly settledAt: string | null;
}

/** What an internal caller asks to reserve. */
export interface ReservationRequest {
  readonly action: string;
  /** Units to hold; at least 1. */
  readonly units: number;
  readonly idempotencyKey: string;
  /** Hold lifetime; DEFAULT_RESERVATION_TTL_MS when absent. */
  readonly ttlMs?: number;
}
