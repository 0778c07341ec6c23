import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import {
  assertMayActOnRole,
  formatInvitationToken,
  INVITATION_TTL_MS,
  invitationStatus,
  type Invitation,
} from '../domain/invitation.js';
import { parseRole } from '../domain/roles.js';
import { normaliseEmail } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { recordChange } from './audit-actor.js';
import { invitationLockKey, invitationSecretHash, type InvitationMail } from './invitation-token.js';
import type { SignedInUser } from './signed-in-user.js';

/**
 * An OWNER or ADMIN invites an address with a role (an ADMIN never an OWNER). The link is mailed
 * before the answer: a link that could not be sent leaves no pending invitation (the caller retries).
 */
export async function createInvitation(
  ctx: IdentityContext,
  mail: InvitationMail | undefined,
  caller: SignedInUser,
  input: { email: string; role: string },
): Promise<Invitation> {
  const role = parseRole(input.role);
  assertMayActOnRole(caller.role, role);
  const email = normaliseEmail(input.email);
  if (!mail) throw identityErrors.create('MAIL_NOT_CONFIGURED');
  const existing = await ctx.users.findCredentials(email);
  if (existing && existing.user.tenantId === caller.tenantId && existing.user.active)
    throw identityErrors.create('ALREADY_MEMBER');
  const inviter = await ctx.users.findInTenant(caller.tenantId, caller.userId);
  if (!inviter?.active) throw identityErrors.create('USER_NOT_FOUND');
  const tenant = await ctx.tenants.findById(caller.tenantId);
  if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
  const now = ctx.now();
  // An expired invitation still holds the address's pending slot: free it, then invite anew.
  const holder = await ctx.invitations.findPendingFor(caller.tenantId, email);
  if (holder && invitationStatus(holder, now) === 'EXPIRED')
    await ctx.locks.run(invitationLockKey(holder.id), () =>
      ctx.invitations.expire(caller.tenantId, holder.id, now),
    );
  const id = ctx.newId();
  const secret = randomSecret();
  const invitation: Invitation = {
    id,
    tenantId: caller.tenantId,
    email,
    role,
    status: 'PENDING',
    invitedBy: { id: inviter.id, email: inviter.email },
    tokenHash: invitationSecretHash(ctx, secret),
    createdAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    claimedAt: null,
  };
  await ctx.invitations.insert(invitation);
  // The token only in the fragment: browsers never send it, so a mail scanner's GET cannot use it.
  const link = `${mail.linkUrl}#token=${formatInvitationToken({ id, secret })}`;
  try {
    await mail.send({
      to: email,
      subject: `You are invited to join ${tenant.name}`,
      text:
        `${inviter.email} invited you to join ${tenant.name} as ${role}.\n\n${link}\n\n` +
        'The link works once, for 7 days. If you did not expect it, ignore this email.\n',
    });
  } catch (error) {
    await ctx.locks.run(invitationLockKey(id), () => ctx.invitations.revoke(caller.tenantId, id, now));
    throw identityErrors.create('MAIL_UNAVAILABLE', { cause: error });
  }
  await recordChange(
    ctx,
    caller.tenantId,
    { type: 'user', id: inviter.id, email: inviter.email },
    'invitation.created',
    { type: 'invitation', id },
  );
  return invitation;
}
