/**
 * `@tap/ratelimit`: the one sliding-window rate limiter of the platform. Every window of a
 * check is read, decided and charged (all or none) by one Lua script in one Redis round trip,
 * on Redis's clock, with keys that share the subject's hash tag. See docs/rate-limiting.md.
 */
export { createRateLimiter } from './limiter.js';
export { DEFAULT_REDIS_TIMEOUT_MS } from './redis-failure.js';
export type { RateLimiter, RateLimiterOptions } from './limiter.js';
export type { RateLimitDecision, WindowSource, WindowState } from './decision.js';
export {
  DEFAULT_SUB_WINDOWS,
  MAX_RULES_PER_CHECK,
  MAX_SUB_WINDOWS,
  MAX_UNITS,
  MAX_WINDOW_MS,
  resolveRule,
  resolveRules,
} from './rules.js';
export type { LimitRule, RedisDownPolicy, ResolvedRule } from './rules.js';
export { RATE_LIMIT_ERROR_CODES, RateLimitConfigError } from './errors.js';
export type { RateLimitErrorCode } from './errors.js';
export type { RedisFailure, RedisFailureCode } from './redis-failure.js';
export { counterKey, MAX_SUBJECT_LENGTH, subjectTag } from './keys.js';
export { rateLimitHeaders, resetSeconds } from './headers.js';
export type { RateLimitHeaders } from './headers.js';
export { createRateLimitRedis, rateLimitRedisOptions } from './redis-options.js';
export type { RateLimitRedis } from './run-script.js';
export { CLOSED_RETRY_AFTER_MS } from './fallback.js';
export { DEFAULT_BREAKER_COOLDOWN_MS, DEFAULT_BREAKER_FAILURES } from './breaker.js';
export { DEFAULT_LOCAL_MAX_COUNTERS } from './local-counters.js';
export { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './script.js';
