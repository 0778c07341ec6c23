/**
 * The seat ledger's set: one document per (tenant, user) holding a MAX_USERS seat, unique by
 * key, so a retried TakeSeat can never hold two seats for one user. The tenant's count lives
 * in its usage document (`counters.MAX_USERS.used`), where `can`, reservations and the usage
 * report already read it.
 */
export interface SeatsRepository {
  ensureIndexes(): Promise<void>;
  holds(tenantId: string, userId: string): Promise<boolean>;
  /** Records the seat; false when the user already held one. */
  insert(tenantId: string, userId: string, now: Date): Promise<boolean>;
  /** Removes the seat; false when the user held none. */
  remove(tenantId: string, userId: string): Promise<boolean>;
  /** The seats of the tenant and when each was taken (bounded by MAX_SYNC_SEATS). */
  list(tenantId: string): Promise<{ userId: string; takenAt: Date }[]>;
}
