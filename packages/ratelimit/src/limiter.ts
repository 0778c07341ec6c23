import { createBreaker, DEFAULT_BREAKER_COOLDOWN_MS, DEFAULT_BREAKER_FAILURES } from './breaker.js';
import { decide, type RateLimitDecision } from './decision.js';
import { RateLimitConfigError } from './errors.js';
import { fallbackWindows } from './fallback.js';
import { assertKeyPrefix, counterKey } from './keys.js';
import { createLocalCounters, DEFAULT_LOCAL_MAX_COUNTERS } from './local-counters.js';
import {
  classifyRedisError,
  DEFAULT_REDIS_TIMEOUT_MS,
  withTimeout,
  type RedisFailure,
} from './redis-failure.js';
import { isIntegerIn, MAX_UNITS, resolveRules, type LimitRule, type ResolvedRule } from './rules.js';
import { REFUND, runScript, type RateLimitRedis } from './run-script.js';
import { readScriptReply, scriptArgs } from './script-io.js';

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
  /**
   * Called once per check that tried Redis and failed (not for checks the open breaker kept
   * from trying); for logs and metrics. What it throws is ignored.
   */
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
  /**
   * Gives back the `cost` units that `charged` (an admitted `consume` of the same subject, rules
   * and cost) took, from the sub-window each landed in: for limits that count only some
   * outcomes (failed logins), charged before the work and refunded when it did not count. A
   * refused decision charged nothing and refunds nothing. Best effort: a Redis failure is
   * reported through `onRedisFailure` and leaves the charge in place (the safe side). Rejects
   * only with {@link RateLimitConfigError}, like `consume`.
   */
  refund(
    subject: string,
    limits: readonly LimitRule[],
    charged: RateLimitDecision,
    cost?: number,
  ): Promise<void>;
}

/** Builds a limiter over a Redis client. Nothing connects here: the caller owns the client. */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  assertKeyPrefix(options.keyPrefix);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REDIS_TIMEOUT_MS;
  if (!isIntegerIn(timeoutMs, 1, 60_000)) {
    throw new RateLimitConfigError(
      'RATE_LIMIT_INVALID_OPTIONS',
      'timeoutMs must be an integer from 1 to 60000',
    );
  }
  const clock = options.clock ?? Date.now;
  const breaker = createBreaker(
    options.breaker?.failures ?? DEFAULT_BREAKER_FAILURES,
    options.breaker?.cooldownMs ?? DEFAULT_BREAKER_COOLDOWN_MS,
  );
  const local = createLocalCounters(options.localMaxCounters ?? DEFAULT_LOCAL_MAX_COUNTERS);

  const reportFailure = (failure: RedisFailure): RedisFailure => {
    try {
      options.onRedisFailure?.(failure);
    } catch {
      // A logging hook must not turn a fallback decision into a failed request.
    }
    return failure;
  };

  /** Asks Redis; on any failure, says why instead of throwing. */
  const askRedis = async (
    keys: readonly string[],
    rules: readonly ResolvedRule[],
    cost: number,
    charge: boolean,
  ): Promise<RateLimitDecision | RedisFailure> => {
    if (breaker.isOpen(clock())) return { code: 'REDIS_CIRCUIT_OPEN' };
    let reply: unknown;
    try {
      reply = await withTimeout(runScript(options.redis, keys, scriptArgs(rules, cost, charge)), timeoutMs);
    } catch (error) {
      breaker.recordFailure(clock());
      return reportFailure(classifyRedisError(error));
    }
    breaker.recordSuccess();
    const read = readScriptReply(reply, rules);
    if (!read) {
      return reportFailure({ code: 'REDIS_ERROR', cause: new Error('unexpected reply from the script') });
    }
    return decide(read.windows, read.now, 'redis');
  };

  const check = async (
    subject: string,
    limits: readonly LimitRule[],
    cost: number,
    charge: boolean,
  ): Promise<RateLimitDecision> => {
    const rules = resolveRules(limits);
    if (!isIntegerIn(cost, 1, MAX_UNITS)) {
      throw new RateLimitConfigError(
        'RATE_LIMIT_INVALID_COST',
        `cost must be an integer from 1 to ${MAX_UNITS}`,
      );
    }
    const keys = rules.map((rule) => counterKey(options.keyPrefix, subject, rule));
    const answer = await askRedis(keys, rules, cost, charge);
    if ('allowed' in answer) return answer;
    const now = clock();
    return decide(fallbackWindows(rules, keys, local, now, cost, charge), now, 'fallback', answer);
  };

  const refund = async (
    subject: string,
    limits: readonly LimitRule[],
    charged: RateLimitDecision,
    cost: number,
  ): Promise<void> => {
    const rules = resolveRules(limits);
    if (!isIntegerIn(cost, 1, MAX_UNITS)) {
      throw new RateLimitConfigError(
        'RATE_LIMIT_INVALID_COST',
        `cost must be an integer from 1 to ${MAX_UNITS}`,
      );
    }
    if (!charged.allowed) return;
    const keys = rules.map((rule) => counterKey(options.keyPrefix, subject, rule));
    if (charged.source === 'fallback') {
      local.refund(keys, rules, charged.at, cost);
      return;
    }
    if (breaker.isOpen(clock())) return;
    const args = [charged.at, cost, ...rules.flatMap((rule) => [rule.subWindowMs, rule.subWindows])];
    try {
      await withTimeout(runScript(options.redis, keys, args, REFUND), timeoutMs);
      breaker.recordSuccess();
    } catch (error) {
      breaker.recordFailure(clock());
      reportFailure(classifyRedisError(error));
    }
  };

  return {
    consume: (subject, limits, cost = 1) => check(subject, limits, cost, true),
    peek: (subject, limits, cost = 1) => check(subject, limits, cost, false),
    refund: (subject, limits, charged, cost = 1) => refund(subject, limits, charged, cost),
  };
}
