import type { SeatLedger } from '../../src/operations/ports/seat-ledger.js';

/**
 * A seat ledger that grants every seat, for identity's own test bed, which runs no entitlements
 * (a service never imports another's source). Seats themselves, limits, crashes and the
 * reconciliation are tested against the real entitlements in tests/system (seats*.test.ts).
 */
export function grantingSeatLedger(): SeatLedger & { readonly held: ReadonlySet<string> } {
  const held = new Set<string>();
  return {
    held,
    async take(tenantId, userId) {
      held.add(`${tenantId}:${userId}`);
      return { granted: true };
    },
    async release(tenantId, userId) {
      held.delete(`${tenantId}:${userId}`);
    },
    async sync(tenantId, userIds) {
      for (const key of [...held]) if (key.startsWith(`${tenantId}:`)) held.delete(key);
      for (const id of userIds) held.add(`${tenantId}:${id}`);
      return { seatsHeld: userIds.length };
    },
  };
}
