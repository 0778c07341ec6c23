import { identityErrors } from '../domain/errors.js';
import type { SessionChannel, SessionClient } from '../domain/session.js';
import { normaliseEmail } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { openSession, type IssuedSession } from './open-session.js';
import { recordSignIn } from './audit-actor.js';

/** Longer than any password we accept; longer input is not hashed as such (a cheap DoS guard). */
const MAX_PASSWORD_INPUT = 1_024;

/**
 * Email and password to a new session. Unknown email, wrong password and inactive account take
 * the same path (one argon2 verification each) and fail with the same error.
 */
export async function login(
  ctx: IdentityContext,
  email: string,
  password: string,
  channel: SessionChannel = 'bearer',
  client?: Partial<SessionClient>,
): Promise<IssuedSession> {
  let found: Awaited<ReturnType<IdentityContext['users']['findCredentials']>> = undefined;
  try {
    found = await ctx.users.findCredentials(normaliseEmail(email));
  } catch (error) {
    if (!identityErrors.is(error, 'EMAIL_INVALID')) throw error;
  }
  const matches = await ctx.passwords.verify(
    found?.passwordHash,
    password.length <= MAX_PASSWORD_INPUT ? password : '',
  );
  if (!found) throw identityErrors.create('INVALID_CREDENTIALS');
  if (!matches || !found.user.active) {
    const reason = matches ? 'USER_INACTIVE' : 'INVALID_CREDENTIALS';
    // Not awaited: an unknown address writes nothing, so waiting for this write would tell the
    // two apart by time. The entry never fails (recordSignIn never rejects).
    void recordSignIn(ctx, found.user, 'session.signed_in', client, reason);
    throw identityErrors.create('INVALID_CREDENTIALS');
  }
  const issued = await openSession(ctx, found.user, channel, client);
  await recordSignIn(ctx, found.user, 'session.signed_in', client);
  return issued;
}
