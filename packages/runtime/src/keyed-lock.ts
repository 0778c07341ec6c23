import { DependencyUnavailableError } from '@tap/errors';

/** How long work waits for the work queued before it on the same key before giving up. */
export const DEFAULT_KEYED_LOCK_WAIT_MS = 5_000;

/** Runs the work of one key one after another inside this process; other keys run alongside. */
export interface KeyedLock {
  /**
   * Runs `work` once every earlier `run` for `key` has finished, in arrival order. Rejects with
   * the lock's timeout error, without running `work`, when the wait exceeds the bound.
   */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/*
 * Why this exists: FerretDB v1 on SQLite applies an update as read, modify in Go, write back,
 * outside a transaction (FerretDB issue #3040). Measured here: 20 concurrent `$inc` of one
 * document left it at 2; ten concurrent conditional updates all reported a match; a `$set`
 * racing a `$push` can drop the pushed element. MongoDB applies each single-document update
 * atomically, so conditional updates are enough there; on FerretDB they only hold when updates
 * of one document never overlap. Every service serialises the updates of one aggregate through
 * this lock, which makes one replica correct on both. Several replicas need MongoDB (or claims
 * made by inserts with a unique _id, which are atomic on both).
 */
export function createKeyedLock(
  options: {
    maxWaitMs?: number;
    /** The error a waiter gives up with; by default UNAVAILABLE (the caller retries). */
    onTimeout?: (key: string) => Error;
  } = {},
): KeyedLock {
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_KEYED_LOCK_WAIT_MS;
  const onTimeout = options.onTimeout ?? busy;
  const tails = new Map<string, Promise<void>>();
  return {
    async run(key, work) {
      const previous = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => {
        release = resolve;
      });
      // The next one waits for the previous one and for this one, even if this one gives up.
      const tail = previous.then(() => mine);
      tails.set(key, tail);
      try {
        if (!(await settledWithin(previous, maxWaitMs))) throw onTimeout(key);
        return await work();
      } finally {
        release();
        // The last holder leaves no entry behind, so memory stays bounded by the keys in use.
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

/**
 * Only the key's first segment (`session`, `client`, a tenant id): the message may reach a log
 * line, and a session id must not.
 */
const busy = (key: string): Error => new DependencyUnavailableError(`busy: ${key.split(':')[0] ?? 'key'}`);

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
