import { notificationErrors } from '../domain/index.js';
import type { EndpointsRepository } from './ports.js';

/** Deletes a tenant's endpoint; its queued deliveries are dropped when their turn comes. */
export async function deleteEndpoint(
  deps: { readonly endpoints: EndpointsRepository },
  tenantId: string,
  endpointId: string,
): Promise<void> {
  if (!(await deps.endpoints.delete(tenantId, endpointId)))
    throw notificationErrors.create('ENDPOINT_NOT_FOUND');
}
