import { notificationErrors } from '../domain/index.js';
import type {
  AttemptsRepository,
  DeliveriesRepository,
  Delivery,
  DeliveryAttempt,
  EndpointsRepository,
} from './ports.js';

/** Most deliveries listed for one endpoint. */
export const MAX_DELIVERIES_LISTED = 100;

/** An endpoint's latest deliveries, newest first (404 for another tenant's endpoint). */
export async function listDeliveries(
  deps: { readonly endpoints: EndpointsRepository; readonly deliveries: DeliveriesRepository },
  tenantId: string,
  endpointId: string,
  limit: number,
): Promise<Delivery[]> {
  if (!(await deps.endpoints.find(tenantId, endpointId)))
    throw notificationErrors.create('ENDPOINT_NOT_FOUND');
  const bounded = limit > 0 ? Math.min(limit, MAX_DELIVERIES_LISTED) : MAX_DELIVERIES_LISTED;
  return deps.deliveries.listForEndpoint(tenantId, endpointId, bounded);
}

/** The attempt log of one delivery (404 for another tenant's). */
export async function listAttempts(
  deps: { readonly deliveries: DeliveriesRepository; readonly attempts: AttemptsRepository },
  tenantId: string,
  deliveryId: string,
): Promise<DeliveryAttempt[]> {
  if (!(await deps.deliveries.find(tenantId, deliveryId)))
    throw notificationErrors.create('DELIVERY_NOT_FOUND');
  return deps.attempts.list(tenantId, deliveryId);
}
