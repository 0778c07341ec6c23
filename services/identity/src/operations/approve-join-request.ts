import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import type { JoinRequest } from './ports/join-repository.js';

/** Approves a pending request: the user becomes active and can sign in (magic link or SSO). */
export async function approveJoinRequest(
  ctx: IdentityContext,
  tenantId: string,
  id: string,
): Promise<JoinRequest> {
  const approved = await ctx.locks.run(`join-request:${id}`, () => ctx.joins.approve(tenantId, id));
  if (!approved) throw identityErrors.create('JOIN_REQUEST_NOT_FOUND');
  await ctx.users.activate(tenantId, approved.userId);
  return approved;
}
