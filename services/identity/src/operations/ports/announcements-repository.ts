/**
 * The state-derived outbox of identity's domain events (docs/identity.md, "Domain events"): a
 * document changed by a write carries a mark and a version, set in that same write; an
 * announcer reads the document, publishes the events that take consumers from what was
 * announced to what is stored, and records what it announced.
 */
export interface AnnouncementState<Announced, Current> {
  /** The document's version when read; the event ids are derived from it. */
  readonly version: number;
  readonly announced: Announced | null;
  readonly current: Current;
}

export interface AnnouncementsRepository<Announced, Current> {
  ensureIndexes(): Promise<void>;
  /** Ids of the documents whose changes are still to be announced, at most `limit`. */
  pending(limit: number): Promise<string[]>;
  /** The document's state, or undefined when it is gone. */
  state(id: string): Promise<AnnouncementState<Announced, Current> | undefined>;
  /**
   * Records `announced` as published at `version`, and drops the mark when no write came in
   * meanwhile (a later write leaves it for the next announcement). `remove` (an OAuth client
   * whose deletion was announced) deletes the document instead when it is still at `version`.
   */
  settle(id: string, version: number, announced: Announced, options?: { remove?: boolean }): Promise<void>;
  /** Marks every document never announced (the first start with announcements); how many. */
  markUnannounced(): Promise<number>;
}
