/** Builders for the domain's own tests (not used by production code). */
import type { Reservation } from '../reservations/reservation.js';

/** A HELD reservation of 500 bulk-upload rows in November 2026, created 10:00, expiring 10:15. */
export function heldReservation(overrides: Partial<Reservation> = {}): Reservation {
  return {
    idempotencyKey: 'import-7',
    action: 'BULK_UPLOAD',
    counter: 'BULK_UPLOAD_ROWS_MONTH',
    period: '2026-11',
    units: 500,
    consumedUnits: 0,
    state: 'HELD',
    createdAt: '2026-11-10T10:00:00.000Z',
    expiresAt: '2026-11-10T10:15:00.000Z',
    settledAt: null,
    ...overrides,
  };
}
