import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';
import type { SignedInUser } from './signed-in-user.js';

/**
 * Ends one of the caller's own sessions (the current one included): its refresh family stops at
 * once and its access tokens are refused through the revocation list. Another user's session, an
 * ended one and an unknown id are all SESSION_NOT_FOUND, and nothing changes.
 */
export async function endSession(
  ctx: IdentityContext,
  caller: SignedInUser,
  sessionId: string,
): Promise<void> {
  const session = await ctx.sessions.find(sessionId);
  const own =
    session !== undefined &&
    session.tenantId === caller.tenantId &&
    session.userId === caller.userId &&
    session.revokedAt === null &&
    session.currentExpiresAt.getTime() > ctx.now().getTime();
  if (!own) throw identityErrors.create('SESSION_NOT_FOUND');
  await revokeSessions(ctx, [sessionId], 'ended-by-user');
}
