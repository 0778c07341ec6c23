import { assertKeepsAnOwner, assertMayManage, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { activeOwnerCount, findMember, reloadMember, underMembersLock } from './member-lookup.js';
import { freeSeatOf } from './seats.js';
import { recordMemberChange } from './audit-actor.js';

/**
 * Deactivates a member: inactive first (no sign-in, no refresh from now), then every session of
 * theirs revoked (refresh-token families in the database, access tokens on the Redis revocation
 * list that every service checks on every request), then the seat freed. Idempotent: a retry
 * repeats the revocation and the release, which change nothing the second time.
 */
export async function deactivateMember(
  ctx: IdentityContext,
  tenantId: string,
  actor: MemberActor,
  userId: string,
): Promise<User> {
  return underMembersLock(ctx, tenantId, async () => {
    const target = await findMember(ctx, tenantId, userId);
    assertMayManage(actor, target);
    assertKeepsAnOwner(target, await activeOwnerCount(ctx, tenantId), { active: false });
    await freeSeatOf(ctx, tenantId, userId);
    const sessionIds = await ctx.sessions.revokeAllOfUser(tenantId, userId, 'user-inactive', ctx.now());
    await ctx.revoker.revoke(sessionIds);
    const after = await reloadMember(ctx, tenantId, userId);
    await recordMemberChange(ctx, tenantId, actor.userId, 'member.deactivated', userId);
    return after;
  });
}
