/** A product event (or a message that was not one) the usage counters could not count. */
export interface RejectedEvent {
  /** The event id, or `stream:<sequence>` for a message that was not a valid event. */
  readonly id: string;
  /** INVALID_EVENT (the domain's), or the consumer's MALFORMED_JSON / INVALID_EVENT / SUBJECT_MISMATCH. */
  readonly reason: string;
  readonly detail: string;
  readonly subject: string;
  readonly eventType?: string;
  readonly tenantId?: string;
}

/** Where rejected events are recorded for an operator, once each. */
export interface RejectedEventsRepository {
  record(event: RejectedEvent, now: Date): Promise<void>;
  list(limit: number): Promise<RejectedEvent[]>;
}
