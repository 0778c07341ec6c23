/** A tenant whose tier is still to be announced on the bus, and the mark that says so. */
export interface PendingAnnouncement {
  readonly tenantId: string;
  /** Changes with every mark, so a clear after a publish never drops a later change's mark. */
  readonly token: string;
}

/**
 * The outbox of `tier.changed` (store/tier-announcements-repository.ts): a mark per tenant whose
 * current tier the bus has not been told yet. Marked before the tier is written, cleared after
 * the publish, so a tier change never goes unannounced (a mark without a change announces the
 * unchanged tier again, which consumers take as a no-op).
 */
export interface TierAnnouncementsRepository {
  mark(tenantId: string, now: Date): Promise<void>;
  /** Marks, oldest first. */
  pending(limit: number): Promise<readonly PendingAnnouncement[]>;
  /** The tenant's mark, if any. */
  find(tenantId: string): Promise<PendingAnnouncement | null>;
  /** Drops the mark if it is still `token` (no change came in meanwhile). */
  clear(pending: PendingAnnouncement): Promise<void>;
  /**
   * Marks every tenant with a tier assignment once the catalogue version last announced is
   * older than `catalogueVersion` (the first start with announcements, or a catalogue change);
   * answers how many were marked.
   */
  markAllBelow(catalogueVersion: number, now: Date): Promise<number>;
}
