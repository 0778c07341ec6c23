/** How long a check waits for Redis before applying each rule's `onRedisDown` policy. */
export const DEFAULT_REDIS_TIMEOUT_MS = 100;

/** Why a check could not use Redis. */
export type RedisFailureCode =
  /** No reply within the limiter's timeout (or the client's `commandTimeout`). */
  | 'REDIS_TIMEOUT'
  /** Not connected: refused, closed, reconnecting, or the client is not ready. */
  | 'REDIS_UNAVAILABLE'
  /** Redis answered with an error (e.g. a key of the wrong type, out of memory). */
  | 'REDIS_ERROR'
  /** Redis was skipped: it failed repeatedly just now, and the breaker is giving it a rest. */
  | 'REDIS_CIRCUIT_OPEN';

/** A failure to reach Redis, as a value: the decision carries it, nothing is thrown. */
export interface RedisFailure {
  readonly code: RedisFailureCode;
  /** The underlying error, for logs; absent when Redis was not tried. */
  readonly cause?: unknown;
}

/** Thrown by `withTimeout` so the limiter can tell its own deadline from other failures. */
export class RedisTimeoutError extends Error {
  override readonly name = 'RedisTimeoutError';
}

/** Thrown when the client says it is not ready, before any command is sent. */
export class RedisNotReadyError extends Error {
  override readonly name = 'RedisNotReadyError';
}

/**
 * Classifies an error from ioredis. Redis's own error replies arrive as `ReplyError`; ioredis's
 * `commandTimeout` rejects with a plain Error whose message is the only marker it offers.
 */
export function classifyRedisError(error: unknown): RedisFailure {
  if (error instanceof RedisTimeoutError) return { code: 'REDIS_TIMEOUT', cause: error };
  if (error instanceof Error) {
    if (error.name === 'ReplyError') return { code: 'REDIS_ERROR', cause: error };
    if (/timed out/i.test(error.message)) return { code: 'REDIS_TIMEOUT', cause: error };
  }
  return { code: 'REDIS_UNAVAILABLE', cause: error };
}

/**
 * Rejects with `RedisTimeoutError` when `promise` does not settle within `timeoutMs`. A second
 * guard besides the client's `commandTimeout`: a client built without it (or with an offline
 * queue) must still not hold a request hostage. A late rejection is swallowed, not left unhandled.
 */
export async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RedisTimeoutError(`no reply from Redis within ${timeoutMs} ms`)),
      timeoutMs,
    );
  });
  promise.catch(() => undefined);
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
