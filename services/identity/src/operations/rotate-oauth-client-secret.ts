import { identityErrors } from '../domain/errors.js';
import { newSecret, type ClientWithSecret } from './client-secrets.js';
import type { IdentityContext } from './context.js';
import { recordChange, type AuditActor } from './audit-actor.js';

/**
 * A new secret; the old one stops at once, and so do the tokens it obtained (their `sid` is the
 * old secret's id). The revocation is recorded before the swap: if Redis is down nothing changes
 * and the caller retries; if the swap then fails, a retry finishes it.
 */
export async function rotateOAuthClientSecret(
  ctx: IdentityContext,
  tenantId: string,
  clientId: string,
  actor: AuditActor,
): Promise<ClientWithSecret> {
  return ctx.locks.run(`client:${clientId}`, async () => {
    const current = await ctx.clients.find(tenantId, clientId);
    if (!current) throw identityErrors.create('OAUTH_CLIENT_NOT_FOUND');
    await ctx.revoker.revoke([current.secretId]);
    const { clientSecret, hash } = newSecret(ctx);
    const client = await ctx.clients.replaceSecret(
      tenantId,
      clientId,
      current.secretId,
      { ...hash, secretId: ctx.newId() },
      ctx.now(),
    );
    if (!client) throw identityErrors.create('OAUTH_CLIENT_ROTATION_CONFLICT');
    await recordChange(ctx, tenantId, actor, 'oauth_client.secret_rotated', {
      type: 'oauth_client',
      id: clientId,
    });
    return { client, clientSecret };
  });
}
