import {
  assertSeatUserId,
  checkLimit,
  entitlementErrors,
  seatSetOf,
  type CanDecision,
} from '../domain/index.js';
import { tierOf, type UsageOperationsDeps } from './deps.js';
import type { SeatsRepository } from './ports/seats-repository.js';

export interface SeatLedgerDeps extends UsageOperationsDeps {
  readonly seats: SeatsRepository;
}

export interface SeatOutcome {
  readonly granted: boolean;
  /** False when the call repeated an earlier one. */
  readonly changed: boolean;
  readonly seatsHeld: number;
  /** The INVITE_USER decision that refused, when not granted. */
  readonly denial?: Extract<CanDecision, { allowed: false; reason: 'LIMIT_EXCEEDED' }>;
}

const seatCounter = async (deps: SeatLedgerDeps, tenantId: string) => {
  const fields = (await deps.usage.read(tenantId)).doc?.counters?.MAX_USERS;
  return { used: fields?.used ?? 0, held: fields?.held ?? 0 };
};

const seatsHeld = async (deps: SeatLedgerDeps, tenantId: string): Promise<number> =>
  (await seatCounter(deps, tenantId)).used;

/**
 * Holds one MAX_USERS seat for the user. The count moves first, with the limit as its condition
 * (one conditional update: atomic on MongoDB; FerretDB applies it read-modify-write, hence the
 * tenant lock, shared with reservations), the seat document second. A crash between the two
 * leaves the count one too high, never a user past the limit; SyncSeats sets it right.
 */
export async function takeSeat(deps: SeatLedgerDeps, tenantId: string, userId: string): Promise<SeatOutcome> {
  assertSeatUserId(userId);
  const now = deps.now();
  const tier = await tierOf(deps.tiers, tenantId, now);
  const limit = tier.limits.MAX_USERS;
  return deps.lock.run(tenantId, async () => {
    if (await deps.seats.holds(tenantId, userId))
      return { granted: true, changed: false, seatsHeld: await seatsHeld(deps, tenantId) };
    const counted = await deps.usage.adjustSeats(tenantId, 1, limit === null ? null : limit - 1, now);
    if (!counted) {
      const decision = checkLimit(tier, 'MAX_USERS', await seatsHeld(deps, tenantId), 1);
      // The count was under the limit when read again: another replica wrote in between.
      if (decision.allowed) throw entitlementErrors.create('RESERVATION_CONTENDED');
      if (decision.reason !== 'LIMIT_EXCEEDED') throw entitlementErrors.create('RESERVATION_CONTENDED');
      return { granted: false, changed: false, seatsHeld: decision.details.current, denial: decision };
    }
    if (!(await deps.seats.insert(tenantId, userId, now))) {
      // Another replica seated the same user in between: give the second count back.
      await deps.usage.adjustSeats(tenantId, -1, null, now);
      return { granted: true, changed: false, seatsHeld: await seatsHeld(deps, tenantId) };
    }
    return { granted: true, changed: true, seatsHeld: await seatsHeld(deps, tenantId) };
  });
}

/** Gives the user's seat back: the seat document first, then the count (the reverse of takeSeat). */
export async function releaseSeat(
  deps: SeatLedgerDeps,
  tenantId: string,
  userId: string,
): Promise<SeatOutcome> {
  assertSeatUserId(userId);
  const now = deps.now();
  return deps.lock.run(tenantId, async () => {
    const removed = await deps.seats.remove(tenantId, userId);
    if (removed) await deps.usage.adjustSeats(tenantId, -1, null, now);
    return { granted: true, changed: removed, seatsHeld: await seatsHeld(deps, tenantId) };
  });
}

export interface SyncOutcome {
  readonly seatsHeld: number;
  readonly added: number;
  readonly removed: number;
}

/**
 * Makes the tenant's seats `userIds` (identity's active users, listed at `listedAt`) and sets the
 * count from the seats plus any units reservations hold. Not limited: the users exist already
 * (tenants from before the ledger, a repair after a crash). A seat taken at or after `listedAt`
 * stays although unlisted: its user was activated after identity read its list.
 */
export async function syncSeats(
  deps: SeatLedgerDeps,
  tenantId: string,
  userIds: readonly unknown[],
  listedAt?: Date,
): Promise<SyncOutcome> {
  const wanted = seatSetOf(userIds);
  const now = deps.now();
  const cutoff = listedAt ?? now;
  return deps.lock.run(tenantId, async () => {
    const seats = await deps.seats.list(tenantId);
    const held = new Set(seats.map((seat) => seat.userId));
    let added = 0;
    let removed = 0;
    for (const seat of seats) {
      if (wanted.has(seat.userId) || seat.takenAt >= cutoff) continue;
      if (await deps.seats.remove(tenantId, seat.userId)) removed += 1;
    }
    for (const userId of wanted) {
      if (!held.has(userId) && (await deps.seats.insert(tenantId, userId, now))) added += 1;
    }
    const seatCount = seats.length - removed + added;
    const reservedUnits = (await seatCounter(deps, tenantId)).held;
    await deps.usage.setSeatCount(tenantId, seatCount + reservedUnits, now);
    return { seatsHeld: seatCount + reservedUnits, added, removed };
  });
}
