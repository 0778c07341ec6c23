import { assertKeepsAnOwner, type MemberActor } from '../domain/members.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { changeMember } from './member-change.js';
import { activeOwnerCount } from './member-lookup.js';
import { freeSeatOf } from './seats.js';

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
  return changeMember(ctx, tenantId, actor, userId, 'member.deactivated', async (target) => {
    assertKeepsAnOwner(target, await activeOwnerCount(ctx, tenantId), { active: false });
    await freeSeatOf(ctx, tenantId, userId);
    const sessionIds = await ctx.sessions.revokeAllOfUser(tenantId, userId, 'user-inactive', ctx.now());
    await ctx.revoker.revoke(sessionIds);
    return true;
  });
}
