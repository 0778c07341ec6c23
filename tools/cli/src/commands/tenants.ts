import { unaryCall } from '@tap/grpc-kit';
import type { IssueAccessTokenResponse } from '@tap/contracts';
import type { OperatorClients } from '../operator-clients.js';

/** Creates a tenant; returns it. */
export async function createTenant(clients: OperatorClients, name: string, slug = '') {
  return unaryCall(
    clients.identity,
    'CreateTenant',
    { name, slug },
    { authorization: clients.authorization },
  );
}

/** Sets a tenant's tier in entitlements (the tier's owner). */
export async function setTier(clients: OperatorClients, tenantId: string, tierCode: string) {
  return unaryCall(
    clients.entitlements,
    'SetTier',
    { tenantId, tierCode },
    { authorization: clients.authorization },
  );
}

/** Mints an access token for a tenant member (support and development tooling). */
export async function issueToken(
  clients: OperatorClients,
  tenantId: string,
  role: string,
  scopes: string[],
  subject = '',
): Promise<Required<IssueAccessTokenResponse>> {
  const response = await unaryCall(
    clients.identity,
    'IssueAccessToken',
    { tenantId, role, scopes, subject },
    { authorization: clients.authorization },
  );
  return { accessToken: response.accessToken, expiresIn: response.expiresIn };
}

/** The tenant with `slug`, or undefined. */
export async function findTenant(clients: OperatorClients, slug: string) {
  try {
    return await unaryCall(
      clients.identity,
      'FindTenantBySlug',
      { slug },
      { authorization: clients.authorization },
    );
  } catch (error) {
    if ((error as { reason?: string }).reason === 'TENANT_NOT_FOUND') return undefined;
    throw error;
  }
}
