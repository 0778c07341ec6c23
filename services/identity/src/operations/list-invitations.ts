import type { Invitation } from '../domain/invitation.js';
import type { IdentityContext } from './context.js';

/** The tenant's pending, unexpired invitations, newest first. */
export async function listInvitations(ctx: IdentityContext, tenantId: string): Promise<Invitation[]> {
  return ctx.invitations.listPending(tenantId, ctx.now());
}
