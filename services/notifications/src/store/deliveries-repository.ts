import { isDuplicateKey } from '@tap/errors';
import type { Collection, Db } from 'mongodb';
import type { DeliveriesRepository, Delivery } from '../operations/ports.js';

type DeliveryDocument = Omit<Delivery, 'id'> & { _id: string; leaseUntil: Date };

/**
 * The durable delivery queue (`webhook_deliveries`). A row is claimed with a lease rather than
 * removed: a worker killed mid-attempt leaves the row PENDING, and it is claimed again when the
 * lease ends, so a kill -9 loses no delivery (at least once: the receiver may see it twice, with
 * the same webhook-id).
 */
export function deliveriesRepository(db: Db): DeliveriesRepository {
  const deliveries: Collection<DeliveryDocument> = db.collection('webhook_deliveries');
  const toDelivery = ({ _id, leaseUntil: _lease, ...rest }: DeliveryDocument): Delivery => ({
    id: _id,
    ...rest,
  });
  return {
    async enqueue({ id, ...rest }) {
      try {
        await deliveries.insertOne({ _id: id, ...rest, leaseUntil: new Date(0) });
      } catch (error) {
        // The unique (endpointId, eventId) index: the event was already queued for this endpoint.
        if (!isDuplicateKey(error)) throw error;
      }
    },
    async claimDue(now, leaseMs, busyEndpoints) {
      const doc = await deliveries.findOneAndUpdate(
        {
          status: 'PENDING',
          nextAttemptAt: { $lte: now },
          leaseUntil: { $lte: now },
          ...(busyEndpoints.length > 0 ? { endpointId: { $nin: [...busyEndpoints] } } : {}),
        },
        { $set: { leaseUntil: new Date(now.getTime() + leaseMs) } },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
      );
      return doc ? toDelivery(doc) : null;
    },
    async recordOutcome(id, outcome, at) {
      await deliveries.updateOne(
        { _id: id },
        { $set: { ...outcome, updatedAt: at, leaseUntil: new Date(0) } },
      );
    },
    async find(tenantId, id) {
      const doc = await deliveries.findOne({ _id: id, tenantId });
      return doc ? toDelivery(doc) : null;
    },
    async listForEndpoint(tenantId, endpointId, limit) {
      const docs = await deliveries
        .find({ tenantId, endpointId })
        .sort({ createdAt: -1 })
        .limit(limit)
        .toArray();
      return docs.map(toDelivery);
    },
    async requeue(tenantId, id, at) {
      const result = await deliveries.updateOne(
        { _id: id, tenantId },
        { $set: { status: 'PENDING', nextAttemptAt: at, leaseUntil: new Date(0), updatedAt: at } },
      );
      return result.matchedCount === 1;
    },
  };
}
