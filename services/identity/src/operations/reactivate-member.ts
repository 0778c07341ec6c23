import { identityErrors } from '../domain/errors.js';
import { assertMayManage, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { findMember, underMembersLock } from './member-lookup.js';
import { activateWithSeat } from './seats.js';
import { recordChange, userActor } from './audit-actor.js';

/** Reactivates a deactivated member: a seat first (LIMIT_EXCEEDED leaves them deactivated). Idempotent. */
export async function reactivateMember(
  ctx: IdentityContext,
  tenantId: string,
  actor: MemberActor,
  userId: string,
): Promise<User> {
  return underMembersLock(ctx, tenantId, async () => {
    const target = await findMember(ctx, tenantId, userId);
    assertMayManage(actor, target);
    if (target.active) return target;
    await activateWithSeat(ctx, tenantId, userId);
    const after = await ctx.users.findInTenant(tenantId, userId);
    if (!after) throw identityErrors.create('USER_NOT_FOUND');
    await recordChange(ctx, tenantId, await userActor(ctx, tenantId, actor.userId), 'member.reactivated', {
      type: 'user',
      id: userId,
    });
    return after;
  });
}
