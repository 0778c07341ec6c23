import { assertMayManage, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import { recordMemberChange } from './audit-actor.js';
import type { IdentityContext } from './context.js';
import { findMember, reloadMember, underMembersLock } from './member-lookup.js';

/**
 * One manager's change to one member, under the members lock: the member is found (USER_NOT_FOUND)
 * and checked as the actor's to manage, `apply` makes the change (false: nothing to change, the
 * member is answered as found and nothing is recorded), then `action` is recorded and the member
 * answered as stored afterwards.
 */
export function changeMember(
  ctx: IdentityContext,
  tenantId: string,
  actor: MemberActor,
  userId: string,
  action: string,
  apply: (target: User) => Promise<boolean>,
): Promise<User> {
  return underMembersLock(ctx, tenantId, async () => {
    const target = await findMember(ctx, tenantId, userId);
    assertMayManage(actor, target);
    if (!(await apply(target))) return target;
    const after = await reloadMember(ctx, tenantId, userId);
    await recordMemberChange(ctx, tenantId, actor.userId, action, userId);
    return after;
  });
}
