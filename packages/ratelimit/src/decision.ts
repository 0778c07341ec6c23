import type { RedisFailure } from './redis-failure.js';

/** Where a window's answer came from: Redis, or the rule's `onRedisDown` policy. */
export type WindowSource = 'redis' | 'local' | 'open' | 'closed';

/** One window's part of a decision. */
export interface WindowState {
  /** The rule's name. */
  readonly policy: string;
  readonly limit: number;
  readonly windowMs: number;
  /** Units counted in the window, this request included when it was admitted. */
  readonly used: number;
  /** `limit - used`, never below 0 (a lowered limit can leave `used` above it). */
  readonly remaining: number;
  /** Epoch ms when every unit counted now has left the window: the full limit is available again. */
  readonly resetAt: number;
  /** Whether this request's cost fitted in this window. */
  readonly fits: boolean;
  /** Epoch ms from which this request's cost would fit; `null` if it never can (cost > limit). */
  readonly retryAt: number | null;
  readonly source: WindowSource;
}

/**
 * The answer to one check, about its binding window: the one that refused (the one that stays
 * refusing longest, if several did) or, when admitted, the one with the least remaining.
 */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** The binding window's limit (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Units left in the binding window after this request (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** Epoch **milliseconds** when the binding window is back to its full limit (`X-RateLimit-Reset` is this in seconds, rounded up). */
  readonly resetAt: number;
  /** Whole seconds until this request would be admitted (>= 1) when refused; 0 when admitted (`Retry-After`). */
  readonly retryAfter: number;
  /** The binding rule's name (`X-RateLimit-Policy`). */
  readonly policy: string;
  /** Epoch ms at which the decision was taken: Redis's clock, or this process's on fallback. */
  readonly at: number;
  /** `redis` when Redis decided; `fallback` when the rules' `onRedisDown` policies did. */
  readonly source: 'redis' | 'fallback';
  /** Why Redis was not used, when `source` is `fallback`. */
  readonly failure?: RedisFailure;
  /** Every window of the check, in the order of the rules. */
  readonly windows: readonly WindowState[];
}

/** Picks the binding window and states the decision. `windows` is not empty. */
export function decide(
  windows: readonly WindowState[],
  at: number,
  source: RateLimitDecision['source'],
  failure?: RedisFailure,
): RateLimitDecision {
  const allowed = windows.every((window) => window.fits);
  const binding = allowed ? leastRemaining(windows) : longestRefusal(windows);
  return {
    allowed,
    limit: binding.limit,
    remaining: binding.remaining,
    resetAt: binding.resetAt,
    retryAfter: allowed ? 0 : retryAfterSeconds(binding, at),
    policy: binding.policy,
    at,
    source,
    ...(failure ? { failure } : {}),
    windows,
  };
}

/**
 * Seconds to wait, rounded up and at least 1 (a 0 would invite an immediate retry). A cost that
 * can never fit gets the window's length: the limit may be raised meanwhile, and there is no
 * better number to give a client that backs off on `Retry-After`.
 */
function retryAfterSeconds(window: WindowState, at: number): number {
  const waitMs = window.retryAt === null ? window.windowMs : window.retryAt - at;
  return Math.max(1, Math.ceil(waitMs / 1_000));
}

function leastRemaining(windows: readonly WindowState[]): WindowState {
  return pick(
    windows,
    (a, b) => a.remaining < b.remaining || (a.remaining === b.remaining && a.resetAt > b.resetAt),
  );
}

function longestRefusal(windows: readonly WindowState[]): WindowState {
  const refusing = windows.filter((window) => !window.fits);
  const until = (window: WindowState): number => window.retryAt ?? Infinity;
  return pick(refusing, (a, b) => until(a) > until(b));
}

/** The first window that no later one beats. */
function pick(
  windows: readonly WindowState[],
  beats: (a: WindowState, b: WindowState) => boolean,
): WindowState {
  const [first, ...rest] = windows;
  if (!first) throw new RangeError('a decision needs at least one window');
  return rest.reduce((best, window) => (beats(window, best) ? window : best), first);
}
