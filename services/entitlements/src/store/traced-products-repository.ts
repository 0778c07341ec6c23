import type { Collection, Db } from 'mongodb';
import { isDuplicateKey } from '@tap/errors';
import type { TracedProductsRepository } from '../operations/ports/traced-products-repository.js';

/**
 * One marker per (tenant, traced product) in `traced_products`: `_id` is `<tenantId>:<productId>`
 * (tenant ids are UUIDs, so the first colon splits them), unique by construction. A set inside
 * the tenant's usage document would grow without bound on Enterprise.
 */
interface TracedProductMarker {
  _id: string;
  tenantId: string;
  productId: string;
  /** The trace.recorded event that made the product count; only that event adds the +1. */
  addedByEventId: string;
  /** The product.archived event that takes it out; set before the −1, the marker deleted after. */
  removedByEventId?: string;
  addedAt: Date;
}

/** The traced-product markers over `db`. */
export function tracedProductsRepository(db: Db): TracedProductsRepository {
  const markers: Collection<TracedProductMarker> = db.collection('traced_products');
  const idOf = (tenantId: string, productId: string) => `${tenantId}:${productId}`;

  const findOrInsert = async (marker: TracedProductMarker): Promise<TracedProductMarker | null> => {
    const existing = await markers.findOne({ _id: marker._id });
    if (existing) return existing;
    try {
      await markers.insertOne(marker);
      return marker;
    } catch (error) {
      // Another writer inserted it first: the unique _id decides, and its marker stands.
      if (isDuplicateKey(error)) return markers.findOne({ _id: marker._id });
      throw error;
    }
  };

  return {
    async claimAdd(tenantId, productId, eventId, now) {
      const marker = await findOrInsert({
        _id: idOf(tenantId, productId),
        tenantId,
        productId,
        addedByEventId: eventId,
        addedAt: now,
      });
      return marker?.addedByEventId === eventId && marker.removedByEventId === undefined;
    },

    async claimRemove(tenantId, productId, eventId) {
      const _id = idOf(tenantId, productId);
      const marker = await markers.findOne({ _id });
      if (!marker) return false;
      if (marker.removedByEventId !== undefined) return marker.removedByEventId === eventId;
      await markers.updateOne(
        { _id, removedByEventId: { $exists: false } },
        { $set: { removedByEventId: eventId } },
      );
      return (await markers.findOne({ _id }))?.removedByEventId === eventId;
    },

    async finishRemove(tenantId, productId, eventId) {
      await markers.deleteOne({ _id: idOf(tenantId, productId), removedByEventId: eventId });
    },
  };
}
