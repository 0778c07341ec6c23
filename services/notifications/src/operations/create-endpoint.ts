import { checkEndpointUrl, checkEventTypes, notificationErrors } from '../domain/index.js';
import type { EndpointsRepository, SecretKeeper, WebhookEndpoint } from './ports.js';

export interface CreateEndpointDeps {
  readonly endpoints: EndpointsRepository;
  readonly secrets: SecretKeeper;
  /** Resolves the host and says whether it may be reached (the address guard). */
  readonly checkHost: (hostname: string) => Promise<'OK' | 'FORBIDDEN' | 'UNRESOLVED'>;
  readonly devAllowedHosts: readonly string[];
  readonly now: () => Date;
  readonly newId: () => string;
}

export interface CreateEndpointInput {
  readonly tenantId: string;
  readonly url: string;
  readonly types: readonly string[];
  readonly enabled?: boolean;
}

/** Registers an endpoint; the returned secret is shown once and kept only sealed. */
export async function createEndpoint(
  deps: CreateEndpointDeps,
  input: CreateEndpointInput,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const { url, hostname } = checkEndpointUrl(input.url, deps.devAllowedHosts);
  const types = checkEventTypes(input.types);
  const reach = await deps.checkHost(hostname);
  if (reach === 'FORBIDDEN') throw notificationErrors.create('ENDPOINT_ADDRESS_FORBIDDEN');
  if (reach === 'UNRESOLVED') throw notificationErrors.create('ENDPOINT_HOST_UNRESOLVED');
  const secret = deps.secrets.generate();
  const at = deps.now();
  const endpoint: WebhookEndpoint = {
    id: deps.newId(),
    tenantId: input.tenantId,
    url,
    types,
    enabled: input.enabled ?? true,
    secrets: [{ sealed: deps.secrets.seal(secret), expiresAt: null }],
    failingSince: null,
    disabledReason: input.enabled === false ? 'BY_USER' : null,
    createdAt: at,
    updatedAt: at,
  };
  await deps.endpoints.insert(endpoint);
  return { endpoint, secret };
}
