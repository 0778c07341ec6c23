import { identityErrors } from '../domain/errors.js';
import { isMember } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

/** The tenant's member `userId`; USER_NOT_FOUND for an unknown id, another tenant's, or a pending join. */
export async function findMember(ctx: IdentityContext, tenantId: string, userId: string): Promise<User> {
  const user = await ctx.users.findInTenant(tenantId, userId);
  if (!user || !isMember(user)) throw identityErrors.create('USER_NOT_FOUND');
  return user;
}

/** The tenant's user `userId` as stored now (after a change to it); USER_NOT_FOUND when it is gone. */
export async function reloadMember(ctx: IdentityContext, tenantId: string, userId: string): Promise<User> {
  const user = await ctx.users.findInTenant(tenantId, userId);
  if (!user) throw identityErrors.create('USER_NOT_FOUND');
  return user;
}

/** How many active OWNERs the tenant has. */
export async function activeOwnerCount(ctx: IdentityContext, tenantId: string): Promise<number> {
  return (await ctx.users.listMembers(tenantId)).filter((u) => u.active && u.role === 'OWNER').length;
}

/**
 * Changes to one tenant's members run one after another in this process, so two managers cannot
 * each demote one of the last two OWNERs (identity runs one replica on FerretDB: docs/identity.md).
 */
export function underMembersLock<T>(
  ctx: IdentityContext,
  tenantId: string,
  run: () => Promise<T>,
): Promise<T> {
  return ctx.locks.run(`members:${tenantId}`, run);
}
