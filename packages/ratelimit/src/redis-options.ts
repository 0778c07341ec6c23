import { Redis, type RedisOptions } from 'ioredis';
import { DEFAULT_REDIS_TIMEOUT_MS } from './redis-failure.js';

/** Ceiling of the reconnect backoff: short, so checks go back to Redis soon after it returns. */
export const MAX_RECONNECT_DELAY_MS = 1_000;
/** How long a connection attempt may take before it counts as failed. */
export const CONNECT_TIMEOUT_MS = 1_000;

/**
 * ioredis options under which a down Redis fails a check at once instead of hanging it:
 * - `enableOfflineQueue: false`: while disconnected, commands are rejected, not queued until
 *   Redis returns (a queued check would charge minutes later, and hold the request meanwhile);
 * - `maxRetriesPerRequest: 0` and `autoResendUnfulfilledCommands: false`: a check in flight when
 *   the connection drops fails instead of being sent again, which could charge it twice;
 * - `commandTimeout`: a Redis that accepts connections but does not answer fails in time.
 * Reconnection carries on in the background with a short capped backoff.
 */
export function rateLimitRedisOptions(overrides: RedisOptions = {}): RedisOptions {
  return {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: DEFAULT_REDIS_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times: number) => Math.min(times * 100, MAX_RECONNECT_DELAY_MS),
    ...overrides,
  };
}

/**
 * A standalone client with {@link rateLimitRedisOptions}. Checks made before it is ready fall
 * back to each rule's policy; wait for its `ready` event before serving, as `/readyz` would.
 */
export function createRateLimitRedis(url: string, overrides: RedisOptions = {}): Redis {
  return new Redis(url, rateLimitRedisOptions(overrides));
}
