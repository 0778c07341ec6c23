import { identityErrors } from '../domain/errors.js';
import { assertMayActOnRole } from '../domain/invitation.js';
import type { IdentityContext } from './context.js';
import { invitationLockKey } from './invitation-token.js';
import type { SignedInUser } from './signed-in-user.js';
import { recordChange, userActor } from './audit-actor.js';

/**
 * Revokes a pending invitation of the caller's tenant: its link answers INVALID_OR_EXPIRED from
 * now on. Another tenant's id, an unknown id and one no longer pending are all INVITATION_NOT_FOUND.
 */
export async function revokeInvitation(
  ctx: IdentityContext,
  caller: SignedInUser,
  id: string,
): Promise<void> {
  const found = await ctx.invitations.findInTenant(caller.tenantId, id);
  if (!found) throw identityErrors.create('INVITATION_NOT_FOUND');
  // As for inviting: an ADMIN does not undo an OWNER's invitation to make an OWNER.
  assertMayActOnRole(caller.role, found.role);
  const revoked = await ctx.locks.run(invitationLockKey(id), () =>
    ctx.invitations.revoke(caller.tenantId, id, ctx.now()),
  );
  if (!revoked) throw identityErrors.create('INVITATION_NOT_FOUND');
  await recordChange(
    ctx,
    caller.tenantId,
    await userActor(ctx, caller.tenantId, caller.userId),
    'invitation.revoked',
    { type: 'invitation', id },
  );
}
