import { assertMayManage, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { findMember, reloadMember, underMembersLock } from './member-lookup.js';
import { activateWithSeat } from './seats.js';
import { recordMemberChange } from './audit-actor.js';

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
    const after = await reloadMember(ctx, tenantId, userId);
    await recordMemberChange(ctx, tenantId, actor.userId, 'member.reactivated', userId);
    return after;
  });
}
