import type { Collection, Db } from 'mongodb';
import type { SeatIntent, SeatIntentsRepository } from '../operations/ports/seat-intents-repository.js';

interface SeatIntentDocument extends SeatIntent {
  /** `<tenantId>:<userId>`: one intent per user. */
  _id: string;
}

const intentId = (tenantId: string, userId: string) => `${tenantId}:${userId}`;

/** The `seat_intents` collection. */
export function seatIntentsRepository(db: Db): SeatIntentsRepository {
  const intents: Collection<SeatIntentDocument> = db.collection('seat_intents');
  return {
    async ensureIndexes() {
      await intents.createIndex({ createdAt: 1 }, { name: 'created' });
    },
    async record(tenantId, userId, now) {
      await intents.updateOne(
        { _id: intentId(tenantId, userId) },
        { $set: { tenantId, userId, createdAt: now } },
        { upsert: true },
      );
    },
    async clear(tenantId, userId) {
      await intents.deleteOne({ _id: intentId(tenantId, userId) });
    },
    async listStale(before, limit) {
      const docs = await intents
        .find({ createdAt: { $lt: before } })
        .sort({ createdAt: 1 })
        .limit(limit)
        .toArray();
      return docs.map(({ tenantId, userId, createdAt }) => ({ tenantId, userId, createdAt }));
    },
  };
}
