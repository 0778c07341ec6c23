import { normaliseDomain } from '../domain/address.js';
import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';

/** Operator: sign-ups from `domain` become join requests of the tenant (ownership checked out of band). */
export async function claimJoinDomain(ctx: IdentityContext, tenantId: string, domain: string): Promise<void> {
  // The same form as the domain of every normalised address, so the match is exact.
  const normalised = normaliseDomain(domain);
  if (normalised === undefined) throw identityErrors.create('JOIN_DOMAIN_INVALID');
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  await ctx.joins.claimDomain(normalised, tenantId);
}
