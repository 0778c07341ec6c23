import { newTenant, type Tenant } from '../domain/tenant.js';
import type { IdentityContext } from './context.js';

/** A tenant without users (operator); TENANT_SLUG_TAKEN when the slug is in use. */
export async function createTenant(
  ctx: Pick<IdentityContext, 'tenants' | 'newId' | 'now'>,
  input: { name: string; slug: string },
): Promise<Tenant> {
  const tenant = newTenant({ name: input.name, slug: input.slug }, ctx.newId(), ctx.now());
  await ctx.tenants.insert(tenant);
  return tenant;
}
