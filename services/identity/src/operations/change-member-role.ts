import { identityErrors } from '../domain/errors.js';
import { assertKeepsAnOwner, assertMayManage, type MemberActor } from '../domain/members.js';
import { parseRole } from '../domain/roles.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { activeOwnerCount, findMember, underMembersLock } from './member-lookup.js';
import { recordMemberChange } from './audit-actor.js';

/**
 * Gives a member another role. The new role takes effect with the member's next access token
 * (at most 15 minutes, or at once with a new sign-in): tokens carry the role they were issued with.
 */
export async function changeMemberRole(
  ctx: IdentityContext,
  tenantId: string,
  actor: MemberActor,
  userId: string,
  roleName: string,
): Promise<User> {
  const role = parseRole(roleName);
  return underMembersLock(ctx, tenantId, async () => {
    const target = await findMember(ctx, tenantId, userId);
    assertMayManage(actor, target, role);
    if (target.role === role) return target;
    assertKeepsAnOwner(target, await activeOwnerCount(ctx, tenantId), { role });
    const updated = await ctx.users.setRole(tenantId, userId, role);
    if (!updated) throw identityErrors.create('USER_NOT_FOUND');
    await recordMemberChange(ctx, tenantId, actor.userId, 'member.role_changed', userId, {
      from: target.role,
      to: role,
    });
    return updated;
  });
}
