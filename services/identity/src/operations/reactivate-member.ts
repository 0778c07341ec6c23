import type { MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { changeMember } from './member-change.js';
import { activateWithSeat } from './seats.js';

/** Reactivates a deactivated member: a seat first (LIMIT_EXCEEDED leaves them deactivated). Idempotent. */
export async function reactivateMember(
  ctx: IdentityContext,
  tenantId: string,
  actor: MemberActor,
  userId: string,
): Promise<User> {
  return changeMember(ctx, tenantId, actor, userId, 'member.reactivated', async (target) => {
    if (target.active) return false;
    await activateWithSeat(ctx, tenantId, userId);
    return true;
  });
}
