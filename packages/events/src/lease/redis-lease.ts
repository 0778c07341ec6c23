import { randomUUID } from 'node:crypto';
import type { ConsumerLease, LeaseClaim } from './consumer-lease.js';

/**
 * The one Redis command the lease needs. An ioredis client (standalone or cluster: one key) fits;
 * the package does not depend on ioredis for it.
 */
export interface LeaseRedis {
  eval(script: string, numkeys: number, ...args: (string | number)[]): Promise<unknown>;
}

export interface RedisLeaseOptions {
  readonly redis: LeaseRedis;
  /** One key per durable consumer, e.g. `lease:entitlements:usage`. */
  readonly key: string;
  readonly ttlMs: number;
  /** This replica's token; random by default. */
  readonly holder?: string;
}

const RELEASED = 'released:';

// GET and SET in one script: the check and the take are atomic, so two replicas never both win.
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 'self' end
if v and string.sub(v, 1, ${RELEASED.length}) ~= '${RELEASED}' then return 'held' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
if v then return 'released' end
return 'unknown'`;

// The released marker outlives the TTL a while, so the next owner learns the hand-over was clean.
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], '${RELEASED}' .. ARGV[1], 'PX', ARGV[2])
end
return 1`;

/** A lease held as `SET key token PX ttl`, renewed by its holder and released on stop. */
export function createRedisLease(options: RedisLeaseOptions): ConsumerLease {
  const holder = options.holder ?? randomUUID();
  return {
    ttlMs: options.ttlMs,
    async claim(): Promise<LeaseClaim> {
      const answer = await options.redis.eval(CLAIM, 1, options.key, holder, options.ttlMs);
      if (answer === 'self' || answer === 'released' || answer === 'unknown') {
        return { held: true, previous: answer };
      }
      return { held: false };
    },
    async release(): Promise<void> {
      await options.redis.eval(RELEASE, 1, options.key, holder, options.ttlMs * 10);
    },
  };
}
