import { isDuplicateKey } from '@tap/errors';
import { ObjectId, type Collection, type Db } from 'mongodb';
import type { FeedEntry, FeedRepository } from '../operations/ports.js';

type FeedDocument = Omit<FeedEntry, 'position'> & { _id: ObjectId };

/**
 * The events feed (`feed_events`). The ObjectId orders it and is the cursor's position; a unique
 * index on the event id keeps a redelivered event once.
 */
export function feedRepository(db: Db): FeedRepository {
  const feed: Collection<FeedDocument> = db.collection('feed_events');
  return {
    async append(entry) {
      try {
        await feed.insertOne({ _id: new ObjectId(), ...entry });
        return true;
      } catch (error) {
        if (isDuplicateKey(error)) return false;
        throw error;
      }
    },
    async after(tenantId, position, types, limit) {
      const docs = await feed
        .find({
          tenantId,
          ...(position ? { _id: { $gt: new ObjectId(position) } } : {}),
          ...(types ? { type: { $in: [...types] } } : {}),
        })
        .sort({ _id: 1 })
        .limit(limit)
        .toArray();
      return docs.map(({ _id, ...rest }) => ({ position: _id.toHexString(), ...rest }));
    },
    async deleteReceivedBefore(cutoff) {
      return (await feed.deleteMany({ receivedAt: { $lt: cutoff } })).deletedCount;
    },
  };
}
