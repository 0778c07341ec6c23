import { DependencyUnavailableError } from '@tap/errors';
import { createKeyedLock, type KeyedLock } from '@tap/runtime';

/**
 * Runs one tenant's aggregate updates one after another inside this process, shared by the gRPC
 * handlers, the consumer and the drift job (see @tap/runtime's KeyedLock for why).
 */
export type TenantWriteLock = KeyedLock;

/** A per-tenant lock whose waiters give up with UNAVAILABLE (the caller retries). */
export function createTenantWriteLock(maxWaitMs?: number): TenantWriteLock {
  return createKeyedLock({
    ...(maxWaitMs === undefined ? {} : { maxWaitMs }),
    onTimeout: (tenantId) =>
      new DependencyUnavailableError(`writes of tenant ${tenantId} are queued too long`),
  });
}
