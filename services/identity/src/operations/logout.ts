import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';
import { userActor } from './audit-actor.js';

/**
 * Ends the session a user token belongs to. Signing out a session that is already revoked is a
 * harmless no-op, so a retried logout succeeds; a client token has no session to end.
 */
export async function logout(
  ctx: IdentityContext,
  caller: {
    readonly kind: string;
    readonly sessionId: string;
    readonly tenantId: string;
    readonly subject: string;
  },
): Promise<void> {
  if (caller.kind !== 'user') throw identityErrors.create('USER_TOKEN_REQUIRED');
  await revokeSessions(ctx, [caller.sessionId], 'logout');
  await ctx.audit.record(caller.tenantId, {
    actor: await userActor(ctx, caller.tenantId, caller.subject),
    action: 'session.signed_out',
    target: { type: 'session', id: caller.sessionId },
    outcome: 'SUCCESS',
  });
}
