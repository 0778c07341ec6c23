import { notificationErrors } from '../domain/index.js';
import type { DeliveriesRepository } from './ports.js';

/** Queues a delivery again, due now, with the same `webhook-id` (the event id). */
export async function replayDelivery(
  deps: { readonly deliveries: DeliveriesRepository; readonly now: () => Date },
  tenantId: string,
  deliveryId: string,
): Promise<void> {
  if (!(await deps.deliveries.requeue(tenantId, deliveryId, deps.now())))
    throw notificationErrors.create('DELIVERY_NOT_FOUND');
}
