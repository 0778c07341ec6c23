import { notificationErrors } from '../domain/index.js';
import type { EndpointsRepository, SecretKeeper } from './ports.js';

export interface RotateEndpointSecretDeps {
  readonly endpoints: EndpointsRepository;
  readonly secrets: SecretKeeper;
  /** How long the old secret still signs (both signatures are sent), WEBHOOK_ROTATION_OVERLAP_MS. */
  readonly overlapMs: number;
  readonly now: () => Date;
}

/**
 * Issues a new secret (shown once). The current one keeps signing beside it until the overlap
 * ends, so a receiver can switch without losing a delivery; older expired ones are dropped.
 */
export async function rotateEndpointSecret(
  deps: RotateEndpointSecretDeps,
  tenantId: string,
  endpointId: string,
): Promise<{ secret: string; previousExpiresAt: Date }> {
  const endpoint = await deps.endpoints.find(tenantId, endpointId);
  if (!endpoint) throw notificationErrors.create('ENDPOINT_NOT_FOUND');
  const at = deps.now();
  const previousExpiresAt = new Date(at.getTime() + deps.overlapMs);
  const current = endpoint.secrets.find((s) => s.expiresAt === null) ?? endpoint.secrets[0];
  const secret = deps.secrets.generate();
  const kept = current ? [{ sealed: current.sealed, expiresAt: previousExpiresAt }] : [];
  const replaced = await deps.endpoints.replaceSecrets(
    tenantId,
    endpointId,
    [{ sealed: deps.secrets.seal(secret), expiresAt: null }, ...kept],
    at,
  );
  if (!replaced) throw notificationErrors.create('ENDPOINT_NOT_FOUND');
  return { secret, previousExpiresAt };
}
