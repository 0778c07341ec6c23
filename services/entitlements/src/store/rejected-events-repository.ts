import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';

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

interface RejectedEventDocument extends Omit<RejectedEvent, 'id'> {
  _id: string;
  recordedAt: Date;
}

/** Where rejected events are recorded for an operator (`rejected_events`), once each. */
export interface RejectedEventsRepository {
  record(event: RejectedEvent, now: Date): Promise<void>;
  list(limit: number): Promise<RejectedEvent[]>;
}

/** The rejected-events record over `db`. */
export function rejectedEventsRepository(db: Db): RejectedEventsRepository {
  const rejected: Collection<RejectedEventDocument> = db.collection('rejected_events');
  return {
    async record({ id, ...rest }, now) {
      try {
        await rejected.insertOne({ _id: id, ...rest, recordedAt: now });
      } catch (error) {
        // A redelivery of the same rejected event: it is recorded already.
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async list(limit) {
      const docs = await rejected.find({}).sort({ recordedAt: -1 }).limit(limit).toArray();
      return docs.map(({ _id, recordedAt: _at, ...rest }) => ({ id: _id, ...rest }));
    },
  };
}
