import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import { recordChange, type AuditActor } from './audit-actor.js';
import type { JoinRequest } from './ports/join-repository.js';

/**
 * Rejects a pending request: it leaves the queue, its user stays inactive (never a member, so
 * never listed, and holds no seat). Another tenant's or an already decided request: not found.
 */
export async function rejectJoinRequest(
  ctx: IdentityContext,
  tenantId: string,
  id: string,
  actor: AuditActor,
): Promise<JoinRequest> {
  const rejected = await ctx.locks.run(`join-request:${id}`, () => ctx.joins.reject(tenantId, id));
  if (!rejected) throw identityErrors.create('JOIN_REQUEST_NOT_FOUND');
  await recordChange(ctx, tenantId, actor, 'join_request.rejected', { type: 'user', id: rejected.userId });
  return rejected;
}
