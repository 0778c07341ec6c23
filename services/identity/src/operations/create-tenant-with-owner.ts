import { identityErrors } from '../domain/errors.js';
import { newTenant, type Tenant } from '../domain/tenant.js';
import { newUser, type NewUserInput, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { withSeat } from './seats.js';

/**
 * A tenant and its OWNER. Two documents cannot be written atomically, so everything that can
 * be checked is checked first, and the tenant is removed again if the owner cannot be stored
 * (its email was taken in between, or no seat could be taken).
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
    // The OWNER holds the tenant's first seat (MAX_USERS counts the owner too).
    await withSeat(ctx, tenant.id, owner.id, () => ctx.users.insert(owner, passwordHash));
  } catch (error) {
    await ctx.tenants.remove(tenant.id);
    throw error;
  }
  return { tenant, owner };
}
