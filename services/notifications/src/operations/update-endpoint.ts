import { checkEventTypes, notificationErrors } from '../domain/index.js';
import type { EndpointsRepository, WebhookEndpoint } from './ports.js';

/** Changes the subscribed types (when given) and enabled (when given) of a tenant's endpoint. */
export async function updateEndpoint(
  deps: { readonly endpoints: EndpointsRepository; readonly now: () => Date },
  tenantId: string,
  endpointId: string,
  change: { types?: readonly string[]; enabled?: boolean },
): Promise<WebhookEndpoint> {
  const types = change.types && change.types.length > 0 ? checkEventTypes(change.types) : undefined;
  const updated = await deps.endpoints.update(
    tenantId,
    endpointId,
    { ...(types ? { types } : {}), ...(change.enabled === undefined ? {} : { enabled: change.enabled }) },
    deps.now(),
  );
  if (!updated) throw notificationErrors.create('ENDPOINT_NOT_FOUND');
  return updated;
}
