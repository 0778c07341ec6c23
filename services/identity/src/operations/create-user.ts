import { identityErrors } from '../domain/errors.js';
import type { Role } from '../domain/roles.js';
import { newUser, type NewUserInput, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

/** Creates a user in an existing tenant; the password is hashed with argon2id before it is stored. */
export async function createUser(
  ctx: IdentityContext,
  tenantId: string,
  input: NewUserInput,
  role: Role,
): Promise<User> {
  const user = newUser(input, { id: ctx.newId(), tenantId }, role, ctx.now());
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  await ctx.users.insert(user, await ctx.passwords.hash(input.password));
  return user;
}
