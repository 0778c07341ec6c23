import { recordChange, type AuditActor } from './audit-actor.js';
import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import type { JoinRequest } from './ports/join-repository.js';
import { withSeat } from './seats.js';

/**
 * Approves a pending request: the user takes a seat and becomes active. The seat comes first, so
 * over the limit (LIMIT_EXCEEDED) the request stays pending and the user inactive; the request is
 * marked approved only once the seat is held, and the user activated after that.
 */
export async function approveJoinRequest(
  ctx: IdentityContext,
  tenantId: string,
  id: string,
  actor: AuditActor,
): Promise<JoinRequest> {
  const approved = await ctx.locks.run(`join-request:${id}`, async () => {
    const pending = await ctx.joins.findPending(tenantId, id);
    if (!pending) throw identityErrors.create('JOIN_REQUEST_NOT_FOUND');
    return withSeat(ctx, tenantId, pending.userId, async () => {
      const approved = await ctx.joins.approve(tenantId, id);
      if (!approved) throw identityErrors.create('JOIN_REQUEST_NOT_FOUND');
      if (!(await ctx.users.activate(tenantId, approved.userId)))
        throw identityErrors.create('USER_NOT_FOUND');
      return approved;
    });
  });
  await recordChange(ctx, tenantId, actor, 'join_request.approved', { type: 'user', id: approved.userId });
  return approved;
}
