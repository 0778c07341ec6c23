import { identityErrors } from '../domain/errors.js';
import { assertMayActOnRole } from '../domain/invitation.js';
import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';
import type { SignedInUser } from './signed-in-user.js';
import { recordMemberChange } from './audit-actor.js';

/**
 * An OWNER or ADMIN ends every session of a member of their tenant (an ADMIN not an OWNER's),
 * their own included if they name themselves; how many ended. Another tenant's user is
 * USER_NOT_FOUND and nothing changes.
 */
export async function endMemberSessions(
  ctx: IdentityContext,
  caller: SignedInUser,
  userId: string,
): Promise<number> {
  const member = await ctx.users.findInTenant(caller.tenantId, userId);
  if (!member) throw identityErrors.create('USER_NOT_FOUND');
  assertMayActOnRole(caller.role, member.role);
  const ids = await ctx.sessions.revokeAllOfUser(caller.tenantId, userId, 'ended-by-manager', ctx.now());
  // Once more per session under its lock (ordered with a refresh in flight), then the revocation list.
  await revokeSessions(ctx, ids, 'ended-by-manager');
  await recordMemberChange(ctx, caller.tenantId, caller.userId, 'member.sessions_ended', userId);
  return ids.length;
}
