import { identityErrors } from '../domain/errors.js';
import type { Role } from '../domain/roles.js';
import type { IdentityContext } from './context.js';
import { usableInvitation } from './invitation-token.js';

/** What the acceptance page shows before the invitee decides. */
export interface InvitationPreview {
  readonly email: string;
  readonly role: Role;
  readonly tenantName: string;
  readonly expiresAt: Date;
  /** The address already has an account: no names or password are asked, the account is linked. */
  readonly existingAccount: boolean;
}

/** Reads a usable invitation by its token without using it up. */
export async function inspectInvitation(ctx: IdentityContext, token: string): Promise<InvitationPreview> {
  const invitation = await usableInvitation(ctx, token);
  const tenant = await ctx.tenants.findById(invitation.tenantId);
  if (!tenant) throw identityErrors.create('INVALID_OR_EXPIRED');
  const existing = await ctx.users.findCredentials(invitation.email);
  return {
    email: invitation.email,
    role: invitation.role,
    tenantName: tenant.name,
    expiresAt: invitation.expiresAt,
    existingAccount: existing !== undefined,
  };
}
