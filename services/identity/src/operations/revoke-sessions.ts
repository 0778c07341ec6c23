import type { RevocationReason } from '../domain/session.js';
import type { IdentityContext } from './context.js';

/**
 * Ends sessions: first in the database (no refresh works any more), then in Redis (their access
 * tokens are refused by the gateway from this moment). A Redis failure fails the call, so a
 * retried logout completes it.
 */
export async function revokeSessions(
  ctx: IdentityContext,
  sessionIds: readonly string[],
  reason: RevocationReason,
): Promise<void> {
  const now = ctx.now();
  for (const id of sessionIds)
    await ctx.locks.run(`session:${id}`, () => ctx.sessions.revoke(id, reason, now));
  await ctx.revoker.revoke(sessionIds);
}
