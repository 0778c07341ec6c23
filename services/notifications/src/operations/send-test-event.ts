import { notificationErrors } from '../domain/index.js';
import { pendingDelivery } from './pending-delivery.js';
import type { DeliveriesRepository, Delivery, EndpointsRepository } from './ports.js';

/** The type of the event "send test" delivers: outside the catalogue, so no subscription names it. */
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * Queues a `webhook.test` event to one endpoint, due now: the receiver sees a signed request
 * shaped like every other (the domain-event envelope), and the attempts are logged like any
 * delivery's. It is not kept in the feed: it happened to the endpoint, not to the tenant.
 */
export async function sendTestEvent(
  deps: {
    readonly endpoints: EndpointsRepository;
    readonly deliveries: DeliveriesRepository;
    readonly now: () => Date;
    readonly newId: () => string;
  },
  tenantId: string,
  endpointId: string,
): Promise<Delivery> {
  const endpoint = await deps.endpoints.find(tenantId, endpointId);
  if (!endpoint) throw notificationErrors.create('ENDPOINT_NOT_FOUND');
  // The worker drops a disabled endpoint's deliveries: say so now rather than log a FAILED row.
  if (!endpoint.enabled) throw notificationErrors.create('ENDPOINT_DISABLED');
  const at = deps.now();
  const eventId = deps.newId();
  const body = JSON.stringify({
    id: eventId,
    type: TEST_EVENT_TYPE,
    tenantId,
    occurredAt: at.toISOString(),
    subject: { endpointId },
    data: {},
  });
  const delivery = pendingDelivery(
    { id: deps.newId(), tenantId, endpointId, eventId, eventType: TEST_EVENT_TYPE, body },
    at,
  );
  await deps.deliveries.enqueue(delivery);
  return delivery;
}
