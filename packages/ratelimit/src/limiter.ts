import { createBreaker, DEFAULT_BREAKER_COOLDOWN_MS, DEFAULT_BREAKER_FAILURES } from './breaker.js';
import { decide, type RateLimitDecision, type WindowState } from './decision.js';
import { RateLimitConfigError } from './errors.js';
import { fallbackWindows } from './fallback.js';
import { assertKeyPrefix, counterKey } from './keys.js';
import { createLocalCounters, DEFAULT_LOCAL_MAX_COUNTERS } from './local-counters.js';
import { classifyRedisError, withTimeout, type RedisFailure } from './redis-failure.js';
import { isIntegerIn, MAX_UNITS, resolveRules, type LimitRule, type ResolvedRule } from './rules.js';
import { runScript, type RateLimitRedis } from './run-script.js';
import { parseScriptReply, type ScriptWindow } from './script-reply.js';

/** How long a check waits for Redis before applying each rule's `onRedisDown` policy. */
export const DEFAULT_REDIS_TIMEOUT_MS = 100;

export interface RateLimiterOptions {
  /** A client built with fail-fast options, see {@link rateLimitRedisOptions}. Standalone or cluster. */
  readonly redis: RateLimitRedis;
  /** Prefix of every key, e.g. `rl` or a test's namespace. No braces. */
  readonly keyPrefix: string;
  /** Deadline for the script's reply, in ms (default {@link DEFAULT_REDIS_TIMEOUT_MS}). */
  readonly timeoutMs?: number;
  /**
   * Epoch ms of this process, used only for the in-process fallback and the breaker. Decisions
   * taken by Redis use Redis's clock, whatever this says.
   */
  readonly clock?: () => number;
  /** Called once per check that tried Redis and failed; for logs and metrics. Must not throw. */
  readonly onRedisFailure?: (failure: RedisFailure) => void;
  /** Consecutive failures that open the breaker, and how long it stays open (ms). */
  readonly breaker?: { readonly failures?: number; readonly cooldownMs?: number };
  /** Counters the in-process fallback keeps at most (default {@link DEFAULT_LOCAL_MAX_COUNTERS}). */
  readonly localMaxCounters?: number;
}

/** The one limiter every service uses. */
export interface RateLimiter {
  /**
   * Checks every rule for `subject` and, if `cost` units fit in all of their windows, charges
   * all of them; otherwise charges none. One round trip to Redis, whatever the number of rules.
   * Never rejects because of Redis: an outage gives a decision with `source: 'fallback'`.
   * Rejects with {@link RateLimitConfigError} for an invalid rule, subject or cost.
   */
  consume(subject: string, limits: readonly LimitRule[], cost?: number): Promise<RateLimitDecision>;
  /** Like `consume`, but charges nothing: would `cost` units be admitted now? (For usage reports.) */
  peek(subject: string, limits: readonly LimitRule[], cost?: number): Promise<RateLimitDecision>;
}

/** Builds a limiter over a Redis client. Nothing connects here: the caller owns the client. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  assertKeyPrefix(options.keyPrefix);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  if (!isIntegerIn(timeoutMs, 1, 60_000)) {
    throw new RateLimitConfigError('RATE_LIMIT_INVALID_OPTIONS', 'timeoutMs must be an integer from 1 to 60000');
  }
  const clock = options.clock ?? Date.now;
  const breaker = createBreaker(options.breaker?.failures ?? DEFAULT_BREAKER_FAILURES, options.breaker?.cooldownMs ?? DEFAULT_BREAKER_COOLDOWN_MS);
  const local = createLocalCounters(options.localMaxCounters ?? DEFAULT_LOCAL_MAX_COUNTERS);

  const reportFailure = (failure: RedisFailure): void => {
    try {
      options.onRedisFailure?.(failure);
    } catch {
      // A logging hook must not turn a fallback decision into a failed request.
    }
  };

  const check = async (subject: string, limits: readonly LimitRule[], cost: number, charge: boolean): Promise<RateLimitDecision> => {
    const rules = resolveRules(limits);
    if (!isIntegerIn(cost, 1, MAX_UNITS)) {
      throw new RateLimitConfigError('RATE_LIMIT_INVALID_COST', `cost must be an integer from 1 to ${MAX_UNITS}`);
    }
    const keys = rules.map((rule) => counterKey(options.keyPrefix, subject, rule));
    const fallback = (failure: RedisFailure): RateLimitDecision => {
      const now = clock();
      return decide(fallbackWindows(rules, keys, local, now, cost, charge), now, 'fallback', failure);
    };

    if (breaker.isOpen(clock())) return fallback({ code: 'REDIS_CIRCUIT_OPEN' });
    let reply: unknown;
    try {
      reply = await withTimeout(runScript(options.redis, keys, scriptArgs(rules, cost, charge)), timeoutMs);
    } catch (error) {
      const failure = classifyRedisError(error);
      breaker.recordFailure(clock());
      reportFailure(failure);
      return fallback(failure);
    }
    breaker.recordSuccess();
    const parsed = parseScriptReply(reply, rules.length);
    if (!parsed) {
      const failure: RedisFailure = { code: 'REDIS_ERROR', cause: new Error('unexpected reply from the rate-limit script') };
      reportFailure(failure);
      return fallback(failure);
    }
    return decide(redisWindows(rules, parsed.windows, parsed.now), parsed.now, 'redis');
  };

  return {
    consume: (subject, limits, cost = 1) => check(subject, limits, cost, true),
    peek: (subject, limits, cost = 1) => check(subject, limits, cost, false),
  };
}

function scriptArgs(rules: readonly ResolvedRule[], cost: number, charge: boolean): (string | number)[] {
  return [cost, charge ? '1' : '0', ...rules.flatMap((rule) => [rule.limit, rule.subWindowMs, rule.subWindows])];
}

function redisWindows(
  rules: readonly ResolvedRule[],
  windows: readonly ScriptWindow[],
  now: number,
): WindowState[] {
  return rules.map((rule, i) => {
    const window = windows[i] ?? { fits: false, used: 0, resetAt: now, retryAt: -1 };
    return {
      policy: rule.name,
      limit: rule.limit,
      windowMs: rule.windowMs,
      used: window.used,
      remaining: Math.max(0, rule.limit - window.used),
      resetAt: window.resetAt,
      fits: window.fits,
      retryAt: window.retryAt < 0 ? null : window.retryAt,
      source: 'redis',
    };
  });
}
