import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';
import type { SignedInUser } from './signed-in-user.js';

/** Ends every session of the caller but the calling one; how many ended. */
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
  return ids.length;
}
