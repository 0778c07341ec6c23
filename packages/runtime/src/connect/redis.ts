import { Redis } from 'ioredis';
import { instrumentRedis } from '@tap/telemetry';
import type { Readiness } from '../readiness.js';
import type { DependencyLogger } from './dependency-logger.js';

export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 100;
const MAX_RECONNECT_DELAY_MS = 5_000;

/**
 * Redis for counters and revocations. Commands fail fast while Redis is away (no offline
 * queue, a short command timeout), so each caller applies its own documented policy instead
 * of hanging; the client reconnects by itself with backoff. Commands issued in one tick (the
 * revocation checks of concurrent calls) go out in one write (auto-pipelining). Every command is timed
 * (`db_client_operation_duration_seconds{system="redis"}`).
 */
export function createRedisDependency(options: {
  url: string;
  name: string;
  readiness: Readiness;
  logger: DependencyLogger;
  commandTimeoutMs?: number;
}): Redis {
  const redis = new Redis(options.url, {
    connectionName: options.name,
    enableOfflineQueue: false,
    enableAutoPipelining: true,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 200, MAX_RECONNECT_DELAY_MS),
  });
  instrumentRedis(redis);
  let warned = false;
  redis.on('error', (error: Error) => {
    if (!warned) options.logger.warn({ dependency: 'redis', err: error.message }, 'redis not reachable');
    warned = true;
  });
  redis.on('ready', () => {
    warned = false;
    options.logger.info({ dependency: 'redis' }, 'redis connected');
  });
  options.readiness.register('redis', async () => {
    if (redis.status !== 'ready') throw new Error(`redis ${redis.status}`);
    await redis.ping();
  });
  return redis;
}
