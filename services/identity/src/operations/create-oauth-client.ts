import { identityErrors } from '../domain/errors.js';
import { newOAuthClient } from '../domain/oauth-client.js';
import { newSecret, type ClientWithSecret } from './client-secrets.js';
import type { IdentityContext } from './context.js';
import { recordChange, type AuditActor } from './audit-actor.js';

/** A new client for `tenantId` with a new secret (shown to the caller once). */
export async function createOAuthClient(
  ctx: IdentityContext,
  tenantId: string,
  input: { name: string; scopes: readonly string[] },
  actor: AuditActor,
): Promise<ClientWithSecret> {
  const client = newOAuthClient(input, { clientId: ctx.newId(), tenantId, secretId: ctx.newId() }, ctx.now());
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  const { clientSecret, hash } = newSecret(ctx);
  await ctx.clients.insert(client, hash);
  await recordChange(ctx, tenantId, actor, 'oauth_client.created', {
    type: 'oauth_client',
    id: client.clientId,
  });
  return { client, clientSecret };
}
