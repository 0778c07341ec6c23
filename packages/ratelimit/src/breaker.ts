/** Consecutive Redis failures after which the limiter stops trying for a while. */
export const DEFAULT_BREAKER_FAILURES = 3;
/** How long the limiter goes straight to each rule's `onRedisDown` policy once the breaker opens. */
export const DEFAULT_BREAKER_COOLDOWN_MS = 1_000;

/**
 * A small circuit breaker. While Redis hangs (rather than refusing connections, which fails at
 * once), every check would wait the full timeout; after `failures` failures in a row the
 * limiter skips Redis for `cooldownMs`, then lets checks through again, and one success closes it.
 */
export interface Breaker {
  /** True when Redis should be skipped at `now`. */
  isOpen(now: number): boolean;
  recordSuccess(): void;
  recordFailure(now: number): void;
}

export function createBreaker(
  failures = DEFAULT_BREAKER_FAILURES,
  cooldownMs = DEFAULT_BREAKER_COOLDOWN_MS,
): Breaker {
  let consecutive = 0;
  let openUntil = -Infinity;
  return {
    isOpen: (now) => now < openUntil,
    recordSuccess() {
      consecutive = 0;
      openUntil = -Infinity;
    },
    recordFailure(now) {
      consecutive += 1;
      if (consecutive >= failures) {
        openUntil = now + cooldownMs;
        consecutive = 0;
      }
    },
  };
}
