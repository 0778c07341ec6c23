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
    // One query for the candidates, then a compare-and-set per row by _id: scanning the queue
    // once per batch, not once per delivery, is what keeps a backlog of thousands moving.
    async claimDue(now, leaseMs, max, inFlight, perEndpoint) {
      const full = [...inFlight].filter(([, n]) => n >= perEndpoint).map(([id]) => id);
      const candidates = await deliveries
        .find({
          status: 'PENDING',
          nextAttemptAt: { $lte: now },
          leaseUntil: { $lte: now },
          ...(full.length > 0 ? { endpointId: { $nin: full } } : {}),
        })
        .sort({ nextAttemptAt: 1 })
        .limit(max * 4)
        .toArray();
      const taken = new Map(inFlight);
      const claimed: Delivery[] = [];
      for (const doc of candidates) {
        if (claimed.length >= max) break;
        if ((taken.get(doc.endpointId) ?? 0) >= perEndpoint) continue;
        const result = await deliveries.updateOne(
          { _id: doc._id, status: 'PENDING', leaseUntil: { $lte: now } },
          { $set: { leaseUntil: new Date(now.getTime() + leaseMs) } },
        );
        if (result.modifiedCount !== 1) continue;
        taken.set(doc.endpointId, (taken.get(doc.endpointId) ?? 0) + 1);
        claimed.push(toDelivery(doc));
      }
      return claimed;
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
    async deleteFinishedBefore(cutoff) {
      const result = await deliveries.deleteMany({
        status: { $in: ['DELIVERED', 'FAILED'] },
        updatedAt: { $lt: cutoff },
      });
      return result.deletedCount;
    },
  };
}
