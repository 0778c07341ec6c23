import { identityErrors } from '../domain/errors.js';
import type { JoinRequest } from './ports/join-repository.js';
import type { IdentityContext } from './context.js';

const DOMAIN = /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/;

/** Operator: sign-ups from `domain` become join requests of the tenant (ownership checked out of band). */
export async function claimJoinDomain(ctx: IdentityContext, tenantId: string, domain: string): Promise<void> {
  const normalised = domain.trim().toLowerCase();
  if (!DOMAIN.test(normalised)) throw identityErrors.create('JOIN_DOMAIN_INVALID');
  if (!(await ctx.tenants.findById(tenantId))) throw identityErrors.create('TENANT_NOT_FOUND');
  await ctx.joins.claimDomain(normalised, tenantId);
}

/** Approves a pending request: the user becomes active and can sign in (magic link or SSO). */
export async function approveJoinRequest(
  ctx: IdentityContext,
  tenantId: string,
  id: string,
): Promise<JoinRequest> {
  const approved = await ctx.locks.run(`join-request:${id}`, () => ctx.joins.approve(tenantId, id));
  if (!approved) throw identityErrors.create('JOIN_REQUEST_NOT_FOUND');
  await ctx.users.activate(tenantId, approved.userId);
  return approved;
}
