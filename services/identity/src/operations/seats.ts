import type { IdentityContext } from './context.js';

/**
 * Every path that makes a user active goes through here, so that the tier's MAX_USERS limit is
 * charged before the user can sign in (issue #22). A seat is taken from entitlements first and
 * the user activated second; the reverse order on deactivation. A crash between the two steps
 * leaves at worst a seat without a user, which the seat reconciliation job frees.
 *
 * Interim: activation without a seat. The seat ledger replaces the bodies of these two functions;
 * their signatures are the contract the team, invitation and sign-up operations call.
 */
export async function activateWithSeat(ctx: IdentityContext, tenantId: string, userId: string): Promise<void> {
  await ctx.users.activate(tenantId, userId);
}

/** Deactivates the user, then frees its seat (the reverse order of activateWithSeat). */
export async function freeSeatOf(_ctx: IdentityContext, _tenantId: string, _userId: string): Promise<void> {
  // Interim: nothing to free until the seat ledger lands.
}
