import type { AnnouncedLevel } from '../../domain/announcements/usage-thresholds.js';

/** What the domain stream was told of a tenant: its tier and each limit's threshold level. */
export interface DomainAnnouncedState {
  readonly tierCode: string | null;
  readonly levels: Readonly<Record<string, AnnouncedLevel>>;
}

/** A tenant to look at again, and the mark that says so. */
export interface DomainMark {
  readonly tenantId: string;
  /** Changes with every mark, so a settle never drops a later change's mark. */
  readonly token: string;
}

/**
 * The outbox of entitlements' domain events (tier.changed, usage.threshold_*): a mark per
 * tenant whose tier or usage changed, and what was announced. Events are derived from the
 * announced state and the stored one, so a mark without a change announces nothing.
 */
export interface DomainAnnouncementsRepository {
  ensureIndexes(): Promise<void>;
  mark(tenantId: string, now: Date): Promise<void>;
  /** Marks every tenant with a usage record or a tier (the sweep after a crash); how many. */
  markAll(now: Date): Promise<number>;
  pending(limit: number): Promise<DomainMark[]>;
  find(tenantId: string): Promise<DomainMark | null>;
  announced(tenantId: string): Promise<DomainAnnouncedState>;
  /** Records what was published; drops the mark if it is still `mark.token`. */
  settle(mark: DomainMark, state: DomainAnnouncedState): Promise<void>;
}
