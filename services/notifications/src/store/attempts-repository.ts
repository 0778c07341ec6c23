import type { Collection, Db } from 'mongodb';
import type { AttemptsRepository, DeliveryAttempt } from '../operations/ports.js';

/** The delivery log (`webhook_attempts`): append-only, one document per attempt. */
export function attemptsRepository(db: Db): AttemptsRepository {
  const attempts: Collection<DeliveryAttempt> = db.collection('webhook_attempts');
  return {
    async append(attempt) {
      await attempts.insertOne({ ...attempt });
    },
    async list(tenantId, deliveryId) {
      const docs = await attempts
        .find({ tenantId, deliveryId }, { projection: { _id: 0 } })
        .sort({ attempt: 1 })
        .toArray();
      return docs;
    },
    async deleteBefore(cutoff) {
      return (await attempts.deleteMany({ at: { $lt: cutoff } })).deletedCount;
    },
  };
}
