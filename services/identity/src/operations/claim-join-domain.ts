import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';

const DOMAIN = /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Operator: sign-ups from `domain` become join requests of the tenant (ownership checked out of band). */
export async function claimJoinDomain(ctx: IdentityContext, tenantId: string, domain: string): Promise<void> {
  const normalised = domain.trim().toLowerCase();
  if (!DOMAIN.test(normalised)) throw identityErrors.create('JOIN_DOMAIN_INVALID');
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  await ctx.joins.claimDomain(normalised, tenantId);
}
