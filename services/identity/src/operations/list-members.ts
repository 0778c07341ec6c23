import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

/** The tenant's members, active and deactivated, oldest first (bounded: MAX_MEMBERS_LISTED). */
export function listMembers(ctx: IdentityContext, tenantId: string): Promise<User[]> {
  return ctx.users.listMembers(tenantId);
}
