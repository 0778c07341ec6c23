import { identityErrors } from '../domain/errors.js';
import { assertKeepsAnOwner, assertMayManage, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { activeOwnerCount, findMember, underMembersLock } from './member-lookup.js';
import { freeSeatOf } from './seats.js';
import { recordChange, userActor } from './audit-actor.js';

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
    const after = await ctx.users.findInTenant(tenantId, userId);
    if (!after) throw identityErrors.create('USER_NOT_FOUND');
    await recordChange(ctx, tenantId, await userActor(ctx, tenantId, actor.userId), 'member.deactivated', {
      type: 'user',
      id: userId,
    });
    return after;
  });
}
