import { DependencyUnavailableError } from '@tap/grpc-kit';

/** How long a write waits for the one before it on the same key before the call gives up. */
export const DEFAULT_LOCK_WAIT_MS = 5_000;

/**
 * Serialises this process's writes to one document (a session, an OAuth client). FerretDB v1
 * applies a conditional update as read, modify in Go, write back, outside a transaction, so two
 * concurrent writes to one document can both "match" and the later one can undo the earlier
 * (docs/entitlements-model.md measured it): a refresh racing a revocation could bring a revoked
 * family back. With this lock one identity replica is correct on FerretDB; on MongoDB the
 * conditional updates are atomic by themselves and the lock only orders a replica's own writes.
 */
export interface KeyedLock {
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/** An in-process lock per key; waiters give up after `waitMs` with UNAVAILABLE. */
export function createKeyedLock(waitMs = DEFAULT_LOCK_WAIT_MS): KeyedLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          previous,
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new DependencyUnavailableError(`busy: ${key.split(':')[0] ?? 'document'}`)),
              waitMs,
            );
          }),
        ]);
        return await work();
      } finally {
        clearTimeout(timer);
        release();
        // The last holder leaves no entry behind (bounded memory).
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}
