import { RateLimiterRedis } from 'rate-limiter-flexible';
import { counterKey, createRateLimiter, resolveRule } from '@tap/ratelimit';

/** @typedef {import('ioredis').Redis} Redis */
/** @typedef {import('@tap/ratelimit').LimitRule} LimitRule */

export const TENANTS = 1_000;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// Limits no tenant reaches: the benchmark measures the cost of a check, not of refusals.
const HUGE = 1_000_000_000;

/** @type {LimitRule[]} */
const twoWindows = [
  { name: 'api-per-minute', limit: HUGE, windowMs: MINUTE, onRedisDown: 'open' },
  { name: 'api-per-day', limit: HUGE, windowMs: DAY, onRedisDown: 'open' },
];
/** @type {LimitRule[]} */
const fourWindows = [
  { name: 'api-per-second', limit: HUGE, windowMs: 1_000, subWindows: 10, onRedisDown: 'open' },
  ...twoWindows,
  { name: 'api-per-hour', limit: HUGE, windowMs: 60 * MINUTE, onRedisDown: 'open' },
];

/** @param {number} i */
const tenant = (i) => `tenant-${i % TENANTS}`;

/**
 * The compared checks. rate-limiter-flexible needs one limiter per window; chained in sequence
 * (as middleware usually is) or in parallel (as its RateLimiterUnion does), it is two round trips.
 * @param {Redis} ourRedis
 * @param {Redis} theirRedis
 * @param {string} prefix
 */
export function benchCases(ourRedis, theirRedis, prefix) {
  const limiter = createRateLimiter({ redis: ourRedis, keyPrefix: prefix, timeoutMs: 2_000 });
  const minute = new RateLimiterRedis({
    storeClient: theirRedis,
    keyPrefix: `${prefix}_rlf_m`,
    points: HUGE,
    duration: 60,
  });
  const day = new RateLimiterRedis({
    storeClient: theirRedis,
    keyPrefix: `${prefix}_rlf_d`,
    points: HUGE,
    duration: 86_400,
  });
  return [
    {
      name: 'ours, 2 windows (1 script)',
      client: ourRedis,
      check: (/** @type {number} */ i) => limiter.consume(tenant(i), twoWindows),
    },
    {
      name: 'rlf, 2 limiters in sequence',
      client: theirRedis,
      check: async (/** @type {number} */ i) => {
        await minute.consume(tenant(i));
        await day.consume(tenant(i));
      },
    },
    {
      name: 'rlf, 2 limiters in parallel',
      client: theirRedis,
      check: (/** @type {number} */ i) => Promise.all([minute.consume(tenant(i)), day.consume(tenant(i))]),
    },
    {
      name: 'ours, 4 windows (1 script)',
      client: ourRedis,
      check: (/** @type {number} */ i) => limiter.consume(tenant(i), fourWindows),
    },
  ];
}

/**
 * Gives every tenant a full minute of history (61 sub-window fields) and a full day (61), as a
 * tenant busy all day would have, so that the measured checks also drop expired sub-windows as
 * they would in production, instead of running over fresh, empty keys.
 * @param {Redis} admin
 * @param {string} prefix
 */
export async function prefill(admin, prefix) {
  const [seconds] = await admin.time();
  const now = Number(seconds) * 1_000;
  const pipeline = admin.pipeline();
  for (let t = 0; t < TENANTS; t += 1) {
    for (const rule of twoWindows.map(resolveRule)) {
      const key = counterKey(prefix, tenant(t), rule);
      const current = Math.floor(now / rule.subWindowMs);
      // The script's hash layout: one field per sub-window, `t` their total, `n` the newest.
      /** @type {Record<string, number>} */
      const fields = { t: rule.subWindows + 1, n: current };
      for (let index = current - rule.subWindows; index <= current; index += 1) fields[String(index)] = 1;
      pipeline.hset(key, fields).pexpire(key, rule.windowMs * 2);
    }
  }
  await pipeline.exec();
}
