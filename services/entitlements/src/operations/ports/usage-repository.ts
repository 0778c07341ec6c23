import type { LimitKey, Reservation, ReservationPlan, ReservationTransition } from '../../domain/index.js';

/** The two fields of one counter; a missing field reads as 0. */
export interface CounterFields {
  used?: number;
  held?: number;
}

/**
 * A tenant's usage as the operations read it: the fields of its usage document they plan over
 * (store/usage-document.ts has the whole stored shape and what each field means).
 */
export interface UsageRecord {
  counters?: Partial<Record<LimitKey, CounterFields>>;
  months?: Record<string, Partial<Record<LimitKey, CounterFields>>>;
  reservations?: Record<string, Reservation>;
  /** The shape before batching: event id → applied-at (ISO); the clean-up forgets old ones. */
  appliedEvents?: Record<string, string>;
  version?: number;
}

/** A tenant's usage record as one operation needs it. */
export interface UsageView {
  /** Counters, months and version, plus the focused reservation; null before the first write. */
  readonly doc: UsageRecord | null;
  readonly reservation: Reservation | undefined;
}

/** What a clean-up pass removes from one tenant's document. */
export interface PruneSet {
  readonly reservationKeys: readonly string[];
  readonly eventIds: readonly string[];
  readonly periods: readonly string[];
}

/**
 * The usage counters, reservations and applied-event marks of each tenant. Every write is one
 * conditional single-document update; `false` means the condition no longer held (the caller
 * reads again and re-plans). Callers serialise a tenant's writes with the tenant write lock
 * (FerretDB v1 does not apply concurrent updates atomically).
 */
export interface UsageRepository {
  read(tenantId: string, focus?: { reservationKey?: string }): Promise<UsageView>;
  /** Reserve's one update: hold the units if the key is new and the guard holds. */
  reserve(tenantId: string, plan: Extract<ReservationPlan, { kind: 'ATTEMPT' }>, now: Date): Promise<boolean>;
  /** Writes a consume, release or expiry, applied only while the reservation is still HELD. */
  settleReservation(
    tenantId: string,
    view: UsageView,
    transition: ReservationTransition,
    now: Date,
  ): Promise<boolean>;
  /**
   * Moves the tenant's seat count (`counters.MAX_USERS.used`) by one. Taking (+1) applies only
   * while `used` is at most `maxUsedBefore` (null: unlimited); giving back (-1) only while it is
   * at least 1. Whether it applied.
   */
  adjustSeats(tenantId: string, delta: 1 | -1, maxUsedBefore: number | null, now: Date): Promise<boolean>;
  /** Sets `counters.MAX_USERS.used` to `used` (seats held plus held reservations): a resync. */
  setSeatCount(tenantId: string, used: number, now: Date): Promise<void>;
  /** The whole record, for the clean-up job. */
  readForCleanup(tenantId: string): Promise<UsageRecord | null>;
  /** Removes what `prune` names; false when it names nothing (no write). */
  prune(tenantId: string, prune: PruneSet, now: Date): Promise<boolean>;
  /** Tenant ids in order, after `after`, at most `limit` (the clean-up job pages with it). */
  listTenantIds(after: string | null, limit: number): Promise<string[]>;
}
