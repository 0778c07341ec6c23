import { createKeyedLock, type KeyedLock } from '@tap/runtime';
import { entitlementErrors } from '../domain/index.js';

/** Runs one tenant's usage writes one after another inside this process (see @tap/runtime's KeyedLock for why). */
export type TenantWriteLock = KeyedLock;

/** A per-tenant lock whose waiters give up with RESERVATION_CONTENDED (UNAVAILABLE: try again). */
export function createTenantWriteLock(maxWaitMs?: number): TenantWriteLock {
  return createKeyedLock({
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    onTimeout: () =>
      entitlementErrors.create('RESERVATION_CONTENDED', {
        message: 'Too many writes for this tenant at once; try again.',
      }),
  });
}
