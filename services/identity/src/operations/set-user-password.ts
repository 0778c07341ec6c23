import { identityErrors } from '../domain/errors.js';
import { checkPassword, normaliseEmail, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { revokeSessions } from './revoke-sessions.js';

/** Sets a user's password (operator support, the demo seed) and ends the user's sessions. */
export async function setUserPassword(ctx: IdentityContext, email: string, password: string): Promise<User> {
  checkPassword(password);
  const user = await ctx.users.setPasswordHash(
    normaliseEmail(email),
    await ctx.passwords.hash(password),
    ctx.now(),
  );
  if (!user) throw identityErrors.create('USER_NOT_FOUND');
  const ended = await ctx.sessions.revokeAllOfUser(user.tenantId, user.id, 'password-reset', ctx.now());
  await revokeSessions(ctx, ended, 'password-reset');
  return user;
}
