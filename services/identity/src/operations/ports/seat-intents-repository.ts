/** An activation or deactivation between its steps: what the reconciliation job settles. */
export interface SeatIntent {
  readonly tenantId: string;
  readonly userId: string;
  readonly createdAt: Date;
}

/**
 * Intents recorded before a seat is taken or freed and cleared once the user's state matches
 * (docs/identity.md "Seats"). One per (tenant, user); a crash leaves it behind for the job.
 */
export interface SeatIntentsRepository {
  ensureIndexes(): Promise<void>;
  record(tenantId: string, userId: string, now: Date): Promise<void>;
  clear(tenantId: string, userId: string): Promise<void>;
  /** Intents recorded before `before`, oldest first, at most `limit`. */
  listStale(before: Date, limit: number): Promise<SeatIntent[]>;
}
