import type { CounterDelta, CounterState, HistoryWrite, LimitKey, Reservation } from '../domain/index.js';

/** A tenant's usage view as the batched writer needs it (see UsageBatchStore). */
export interface UsageBatchView {
  /** Highest stream sequence applied; 0 before the first batch write. */
  readonly lastSeq: number;
  /** Bumped by every write to the tenant's usage document; what read caches compare. */
  readonly version: number;
  counter(counter: LimitKey, period: string | undefined): CounterState;
  /** The reservations asked for that exist. */
  readonly reservations: ReadonlyMap<string, Reservation>;
  /** Ids of the tenant's most recently counted events, oldest first (at most RECENT_EVENT_IDS_KEPT). */
  readonly recentEventIds: readonly string[];
}

/** One batch write: net increments, settled reservations, the new lastSeq. */
export interface UsageBatchWrite {
  readonly increments: readonly CounterDelta[];
  readonly settled: readonly Reservation[];
  readonly lastSeq: number;
  /** The new list of recent ids (already cut to RECENT_EVENT_IDS_KEPT). */
  readonly recentEventIds: readonly string[];
}

/** The per-tenant usage document, as the batched counter writes it. */
export interface UsageBatchStore {
  read(tenantId: string, reservationKeys: readonly string[]): Promise<UsageBatchView>;
  /**
   * One conditional update: applies only while `lastSeq` is still `view.lastSeq` (no other writer
   * applied events meanwhile), every decrement still fits, and every settled reservation is still
   * HELD. Bumps `version`. False: re-read, fold again.
   */
  apply(tenantId: string, view: UsageBatchView, write: UsageBatchWrite, now: Date): Promise<boolean>;
}

/** The traced-product markers (one per tenant and product, in their own collection). */
export interface DistinctMarkers {
  /** Marks the product traced if it is not; true when this event's marker is the one that counts. */
  claimAdd(tenantId: string, productId: string, eventId: string, now: Date): Promise<boolean>;
  /** Marks the product as being removed by this event; true when this event is the one that frees it. */
  claimRemove(tenantId: string, productId: string, eventId: string): Promise<boolean>;
  /** Deletes the marker once the −1 is applied (only the event that claimed the removal may). */
  finishRemove(tenantId: string, productId: string, eventId: string): Promise<void>;
}

/** Serialises a tenant's writes inside this process. */
export interface TenantLock {
  run<T>(tenantId: string, work: () => Promise<T>): Promise<T>;
}

/** Told after each successful write, so read caches of every replica can drop older states. */
export type UsageChanged = (tenantId: string, version: number) => void;

/** Where the points of each counter write go (the usage history). */
export interface HistoryRecorder {
  record(tenantId: string, writes: readonly HistoryWrite[]): Promise<void>;
}

export interface UsageBatchDeps {
  readonly store: UsageBatchStore;
  readonly markers: DistinctMarkers;
  readonly lock: TenantLock;
  readonly now: () => Date;
  readonly changed?: UsageChanged;
  /** Given the points of every successful write (absent: no history is kept). */
  readonly history?: HistoryRecorder;
}
