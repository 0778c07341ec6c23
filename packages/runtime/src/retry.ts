import { setTimeout as sleep } from 'node:timers/promises';

export interface BackoffOptions {
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
  readonly signal?: AbortSignal;
  /** Called after each failed attempt with the delay before the next one. */
  readonly onRetry?: (error: unknown, attempt: number, delayMs: number) => void;
}

export const DEFAULT_INITIAL_DELAY_MS = 200;
export const DEFAULT_MAX_DELAY_MS = 10_000;

/**
 * Calls `attempt` until it succeeds (or `signal` aborts), waiting an exponentially growing,
 * jittered delay between tries. Used for dependencies that are not there yet at start: the
 * process stays alive and not ready instead of crashing into a restart loop.
 */
export async function retryWithBackoff<T>(
  attempt: () => Promise<T>,
  options: BackoffOptions = {},
): Promise<T> {
  const initial = options.initialDelayMs ?? DEFAULT_INITIAL_DELAY_MS;
  const max = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  for (let n = 1; ; n += 1) {
    options.signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (error) {
      options.signal?.throwIfAborted();
      const ceiling = Math.min(max, initial * 2 ** Math.min(n - 1, 20));
      const delay = Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
      options.onRetry?.(error, n, delay);
      await sleep(delay, undefined, options.signal ? { signal: options.signal } : undefined);
    }
  }
}
