import { identityErrors } from '../domain/errors.js';
import type { Role } from '../domain/roles.js';
import { newUser, type NewUserInput, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { withSeat } from './seats.js';

/**
 * Creates an active user in an existing tenant (the operator's CreateUser): a seat first
 * (LIMIT_EXCEEDED creates nothing), then the user; the password is hashed with argon2id.
 */
export async function createUser(
  ctx: IdentityContext,
  tenantId: string,
  input: NewUserInput,
  role: Role,
): Promise<User> {
  const user = newUser(input, { id: ctx.newId(), tenantId }, role, ctx.now());
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  const passwordHash = await ctx.passwords.hash(input.password);
  if (await ctx.users.findCredentials(user.email)) throw identityErrors.create('EMAIL_TAKEN');
  return withSeat(ctx, tenantId, user.id, async () => {
    await ctx.users.insert(user, passwordHash);
    return user;
  });
}
