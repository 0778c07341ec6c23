import type { OAuthClient } from '../domain/oauth-client.js';
import type { IdentityContext } from './context.js';

/** The tenant's OAuth clients (deleted ones are hidden); never a secret or its hash. */
export async function listOAuthClients(
  ctx: Pick<IdentityContext, 'clients'>,
  tenantId: string,
): Promise<OAuthClient[]> {
  return ctx.clients.listByTenant(tenantId);
}
