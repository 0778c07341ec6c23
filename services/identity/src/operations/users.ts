import { identityErrors } from '../domain/errors.js';
import type { Role } from '../domain/roles.js';
import { newTenant, type Tenant } from '../domain/tenant.js';
import { checkPassword, newUser, normaliseEmail, type NewUserInput, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { revokeSessions } from './sessions.js';

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

/**
 * A tenant and its OWNER. Two documents cannot be written atomically, so everything that can
 * be checked is checked first, and the tenant is removed again if the owner cannot be stored
 * (its email was taken in between).
 */
export async function createTenantWithOwner(
  ctx: IdentityContext,
  input: { name: string; slug: string; owner: NewUserInput },
): Promise<{ tenant: Tenant; owner: User }> {
  const now = ctx.now();
  const tenant = newTenant({ name: input.name, slug: input.slug }, ctx.newId(), now);
  const owner = newUser(input.owner, { id: ctx.newId(), tenantId: tenant.id }, 'OWNER', now);
  const passwordHash = await ctx.passwords.hash(input.owner.password);
  if (await ctx.users.findCredentials(owner.email)) throw identityErrors.create('EMAIL_TAKEN');
  await ctx.tenants.insert(tenant);
  try {
    await ctx.users.insert(owner, passwordHash);
  } catch (error) {
    await ctx.tenants.remove(tenant.id);
    throw error;
  }
  return { tenant, owner };
}

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
