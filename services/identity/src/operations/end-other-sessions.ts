import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';
import type { SignedInUser } from './signed-in-user.js';
import { recordMemberChange } from './audit-actor.js';

/**
 * Ends every session of the caller but the calling one; how many ended. Audited like a manager
 * ending a member's sessions (`member.sessions_ended`), under its own action: the user is both
 * actor and target.
 */
export async function endOtherSessions(ctx: IdentityContext, caller: SignedInUser): Promise<number> {
  const ids = await ctx.sessions.revokeAllOfUser(
    caller.tenantId,
    caller.userId,
    'ended-by-user',
    ctx.now(),
    caller.sessionId,
  );
  // Once more per session under its lock (ordered with a refresh in flight), then the revocation list.
  await revokeSessions(ctx, ids, 'ended-by-user');
  await recordMemberChange(ctx, caller.tenantId, caller.userId, 'session.others_ended', caller.userId);
  return ids.length;
}
