import { DependencyUnavailableError } from '@tap/grpc-kit';

/** How long a write waits for the writes queued before it on the same tenant. */
export const DEFAULT_TENANT_LOCK_WAIT_MS = 5_000;

/** Runs one tenant's document updates one after another inside this process. */
export interface TenantWriteLock {
  /**
   * Runs `work` once every earlier `run` for `tenantId` has finished. Rejects with
   * DependencyUnavailableError (UNAVAILABLE: retry) when the wait exceeds the bound.
   */
  run<T>(tenantId: string, work: () => Promise<T>): Promise<T>;
}

/*
 * Why this exists: FerretDB v1 on SQLite applies an update as read, modify in Go, write back,
 * outside a transaction (FerretDB issue #3040). Measured here: ten concurrent conditional
 * updates of one document all reported a match, ten concurrent `$inc` left it at 1, and a
 * `$set` racing a `$push` can drop the pushed fact. MongoDB applies each single-document update
 * atomically, so the version guards of this store are enough there; on FerretDB they only hold
 * when updates of one document never overlap. Serialising them per tenant makes one replica
 * correct on both. (Inserts are atomic on both: the claims that must hold across replicas,
 * success-plan generations and drift-watch leases, are inserts.)
 */
export function createTenantWriteLock(maxWaitMs = DEFAULT_TENANT_LOCK_WAIT_MS): TenantWriteLock {
  const tails = new Map<string, Promise<void>>();
  return {
    async run(tenantId, work) {
      const previous = tails.get(tenantId) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The next writer waits for the previous one and for this one, even if this one gives up.
      const tail = previous.then(() => mine);
      tails.set(tenantId, tail);
      try {
        if (!(await settledWithin(previous, maxWaitMs))) {
          throw new DependencyUnavailableError(`writes of tenant ${tenantId} are queued too long`);
        }
        return await work();
      } finally {
        release();
        if (tails.get(tenantId) === tail) tails.delete(tenantId);
      }
    },
  };
}

async function settledWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
