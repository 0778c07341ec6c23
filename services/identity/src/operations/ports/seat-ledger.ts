/** The numbers behind a refused seat: entitlements' INVITE_USER decision. */
export interface SeatDenial {
  readonly limit: 'MAX_USERS';
  readonly current: number;
  readonly requested: number;
  readonly available: number;
}

export type SeatAnswer =
  { readonly granted: true } | { readonly granted: false; readonly denial: SeatDenial };

/**
 * Entitlements' seat ledger of MAX_USERS (docs/entitlements-model.md "Seats"): entitlements owns
 * tiers and limits, identity asks it before any user becomes active. Every call is idempotent per
 * (tenant, user). An unreachable ledger throws (UNAVAILABLE), it never answers "granted".
 */
export interface SeatLedger {
  take(tenantId: string, userId: string): Promise<SeatAnswer>;
  release(tenantId: string, userId: string): Promise<void>;
  /**
   * Makes the tenant's seats these users (its active users, listed at `listedAt`); seats taken
   * after `listedAt` are kept even when not listed (a user activated meanwhile).
   */
  sync(tenantId: string, userIds: readonly string[], listedAt: Date): Promise<{ seatsHeld: number }>;
}
