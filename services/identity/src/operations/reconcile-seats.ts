import type { IdentityContext } from './context.js';
import { settleSeat } from './seats.js';

/**
 * An intent younger than this may belong to an activation still in flight (a seat call waits at
 * most its 2 s deadline); older ones were left by a crash or a failed call.
 */
export const SEAT_INTENT_GRACE_MS = 60_000;
/** Intents settled per pass; the next pass takes the rest. */
export const SEAT_INTENTS_PER_PASS = 200;
/** Tenants resynced per page of the seat migration. */
const TENANTS_PER_PAGE = 100;

/**
 * Settles intents left between "seat taken" and "user active" (or "user inactive" and "seat
 * freed"): an active user keeps (or gets again) its seat, any other gives it back. How many.
 */
export async function settleStaleSeatIntents(
  ctx: IdentityContext,
  before: Date = new Date(ctx.now().getTime() - SEAT_INTENT_GRACE_MS),
): Promise<number> {
  const stale = await ctx.seatIntents.listStale(before, SEAT_INTENTS_PER_PASS);
  for (const intent of stale) await settleSeat(ctx, intent.tenantId, intent.userId);
  return stale.length;
}

/** Makes entitlements' seats of one tenant its active users (SyncSeats). */
export async function resyncTenantSeats(
  ctx: IdentityContext,
  tenantId: string,
): Promise<{ seatsHeld: number }> {
  // Taken before listing: a seat taken while the list is read is newer and stays.
  const listedAt = ctx.now();
  const active = await ctx.users.listActiveIds(tenantId);
  return ctx.seatLedger.sync(tenantId, active, listedAt);
}

/**
 * The migration of tenants from before the seat ledger: every tenant's active users get seats
 * (the OWNER included). Idempotent (SyncSeats sets, never adds), so it runs at every start.
 */
export async function migrateSeats(ctx: IdentityContext): Promise<{ tenants: number }> {
  let after: string | null = null;
  let tenants = 0;
  for (;;) {
    const page = await ctx.users.listTenantIds(after, TENANTS_PER_PAGE);
    for (const tenantId of page) await resyncTenantSeats(ctx, tenantId);
    tenants += page.length;
    if (page.length < TENANTS_PER_PAGE) return { tenants };
    after = page[page.length - 1] ?? null;
  }
}
