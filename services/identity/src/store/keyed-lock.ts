import { DependencyUnavailableError } from '@tap/errors';
import { createKeyedLock as createLock, type KeyedLock } from '@tap/runtime';

export type { KeyedLock } from '@tap/runtime';

/**
 * Serialises this process's writes to one document (a session, an OAuth client): a refresh
 * racing a revocation must not bring a revoked family back on FerretDB (see @tap/runtime's
 * KeyedLock for why). Waiters give up after `waitMs` with UNAVAILABLE.
 */
export function createKeyedLock(waitMs?: number): KeyedLock {
  return createLock({
    ...(waitMs === undefined ? {} : { maxWaitMs: waitMs }),
    onTimeout: (key) => new DependencyUnavailableError(`busy: ${key.split(':')[0] ?? 'document'}`),
  });
}
