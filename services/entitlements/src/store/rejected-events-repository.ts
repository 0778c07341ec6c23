import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';
import type {
  RejectedEvent,
  RejectedEventsRepository,
} from '../operations/ports/rejected-events-repository.js';

interface RejectedEventDocument extends Omit<RejectedEvent, 'id'> {
  _id: string;
  recordedAt: Date;
}

/** The rejected-events record over `db` (`rejected_events`, `_id` = the event id: once each). */
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
