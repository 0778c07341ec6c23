import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';

/**
 * Every path that makes a user active goes through here, so that the tier's MAX_USERS limit is
 * charged before the user can sign in (issue #22; docs/identity.md "Seats"). The order is: record
 * an intent, take the seat from entitlements, make the user active, clear the intent; and the
 * reverse on deactivation. A crash between two steps leaves the intent, which the seat
 * reconciliation job settles from the user's state: active keeps its seat, anything else frees it.
 */
export async function activateWithSeat(
  ctx: IdentityContext,
  tenantId: string,
  userId: string,
): Promise<void> {
  await withSeat(ctx, tenantId, userId, async () => {
    if (!(await ctx.users.activate(tenantId, userId))) throw identityErrors.create('USER_NOT_FOUND');
  });
}

/**
 * Takes the user's seat, then runs `activate` (which makes the user active: an insert of an
 * active user, an activation, an approval). Refused: LIMIT_EXCEEDED with the ledger's numbers,
 * and `activate` never runs. `activate` failing: the seat is settled again from the user's state.
 */
export async function withSeat<T>(
  ctx: IdentityContext,
  tenantId: string,
  userId: string,
  activate: () => Promise<T>,
): Promise<T> {
  await ctx.seatIntents.record(tenantId, userId, ctx.now());
  const answer = await ctx.seatLedger.take(tenantId, userId);
  if (!answer.granted) {
    await ctx.seatIntents.clear(tenantId, userId);
    throw identityErrors.create('LIMIT_EXCEEDED', { details: { ...answer.denial } });
  }
  let result: T;
  try {
    result = await activate();
  } catch (error) {
    // Another approval may have activated the same user meanwhile: its seat is this one.
    await settleSeat(ctx, tenantId, userId).catch(() => undefined);
    throw error;
  }
  await ctx.seatIntents.clear(tenantId, userId);
  return result;
}

/** Deactivates the user, then frees its seat (the reverse order of activateWithSeat). */
export async function freeSeatOf(ctx: IdentityContext, tenantId: string, userId: string): Promise<void> {
  await ctx.seatIntents.record(tenantId, userId, ctx.now());
  if (!(await ctx.users.deactivate(tenantId, userId, ctx.now())))
    throw identityErrors.create('USER_NOT_FOUND');
  await ctx.seatLedger.release(tenantId, userId);
  await ctx.seatIntents.clear(tenantId, userId);
}

/**
 * Makes the ledger agree with the user as stored: an active user holds a seat (taken again if
 * need be; idempotent, and kept even past a lowered limit, as the user is already active), any
 * other user (inactive, deactivated, never created) holds none. Then the intent is cleared.
 */
export async function settleSeat(ctx: IdentityContext, tenantId: string, userId: string): Promise<void> {
  const user = await ctx.users.findInTenant(tenantId, userId);
  if (user?.active) await ctx.seatLedger.take(tenantId, userId);
  else await ctx.seatLedger.release(tenantId, userId);
  await ctx.seatIntents.clear(tenantId, userId);
}
