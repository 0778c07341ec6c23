import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';
import { MAX_SYNC_SEATS } from '../domain/index.js';
import type { SeatsRepository } from '../operations/ports/seats-repository.js';

interface SeatDocument {
  /** `<tenantId>:<userId>`: the unique key that makes a seat per user idempotent. */
  _id: string;
  tenantId: string;
  userId: string;
  takenAt: Date;
}

const seatId = (tenantId: string, userId: string) => `${tenantId}:${userId}`;

/** The seat documents in the `seats` collection. */
export function seatsRepository(db: Db): SeatsRepository {
  const seats: Collection<SeatDocument> = db.collection('seats');
  return {
    async ensureIndexes() {
      await seats.createIndex({ tenantId: 1 }, { name: 'tenant' });
    },
    async holds(tenantId, userId) {
      return (await seats.findOne({ _id: seatId(tenantId, userId) }, { projection: { _id: 1 } })) !== null;
    },
    async insert(tenantId, userId, now) {
      try {
        await seats.insertOne({ _id: seatId(tenantId, userId), tenantId, userId, takenAt: now });
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    },
    async remove(tenantId, userId) {
      return (await seats.deleteOne({ _id: seatId(tenantId, userId) })).deletedCount === 1;
    },
    async list(tenantId) {
      const docs = await seats
        .find({ tenantId }, { projection: { userId: 1, takenAt: 1 } })
        .limit(MAX_SYNC_SEATS + 1)
        .toArray();
      return docs.map((doc) => ({ userId: doc.userId, takenAt: doc.takenAt }));
    },
  };
}
