import { entitlementErrors } from '../errors.js';

// Identity's user ids (UUIDs today); the rule only keeps seat keys safe and bounded.
const USER_ID = /^[A-Za-z0-9][A-Za-z0-9_:-]{0,127}$/;

/** Most users one SyncSeats may name (a proto message of them stays well under 4 MB). */
export const MAX_SYNC_SEATS = 100_000;

/** Throws INVALID_USER_ID unless `value` is 1 to 128 of [A-Za-z0-9_:-], starting with a letter or digit. */
export function assertSeatUserId(value: unknown): asserts value is string {
  if (typeof value !== 'string' || !USER_ID.test(value)) throw entitlementErrors.create('INVALID_USER_ID');
}

/** The distinct, valid user ids of a SyncSeats request. */
export function seatSetOf(userIds: readonly unknown[]): Set<string> {
  if (userIds.length > MAX_SYNC_SEATS)
    throw entitlementErrors.create('INVALID_USER_ID', { details: { max: MAX_SYNC_SEATS } });
  for (const id of userIds) assertSeatUserId(id);
  return new Set(userIds as string[]);
}
