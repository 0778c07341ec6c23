import { identityErrors } from '../domain/errors.js';
import type { Tenant } from '../domain/tenant.js';
import type { IdentityContext } from './context.js';

/** The tenant whose slug this is (case and surrounding spaces ignored); TENANT_NOT_FOUND otherwise. */
export async function findTenantBySlug(ctx: Pick<IdentityContext, 'tenants'>, slug: string): Promise<Tenant> {
  const tenant = await ctx.tenants.findBySlug(slug.trim().toLowerCase());
  if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
  return tenant;
}
