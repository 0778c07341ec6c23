import { identityErrors } from '../domain/errors.js';
import type { Tenant } from '../domain/tenant.js';
import type { IdentityContext } from './context.js';

/** The tenant by id; TENANT_NOT_FOUND when there is none. */
export async function getTenant(ctx: Pick<IdentityContext, 'tenants'>, tenantId: string): Promise<Tenant> {
  const tenant = await ctx.tenants.findById(tenantId);
  if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
  return tenant;
}
