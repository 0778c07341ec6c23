import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import { recordChange, type AuditActor } from './audit-actor.js';

/**
 * Deletes a client and revokes its tokens, in three retry-safe steps: hide it (no new tokens),
 * revoke its current tokens in Redis, remove it. A failure in between leaves it hidden, and a
 * retried deletion finishes the job.
 */
export async function deleteOAuthClient(
  ctx: IdentityContext,
  tenantId: string,
  clientId: string,
  actor: AuditActor,
): Promise<void> {
  await ctx.locks.run(`client:${clientId}`, async () => {
    const client = await ctx.clients.markDeleted(tenantId, clientId, ctx.now());
    if (!client) throw identityErrors.create('OAUTH_CLIENT_NOT_FOUND');
    await ctx.revoker.revoke([client.secretId]);
    await ctx.clients.purge(tenantId, clientId);
  });
  await recordChange(ctx, tenantId, actor, 'oauth_client.deleted', { type: 'oauth_client', id: clientId });
}
