import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Cluster, Redis } from 'ioredis';
import { testNamespace } from '@tap/testkit';
import { createRateLimiter, rateLimitRedisOptions, type LimitRule } from '../src/index.js';
import { waitUntil } from './support/clients.js';
import { startOwnRedis, type OwnRedis } from './support/redis-process.js';

const MINUTE = 60_000;
const prefix = testNamespace('ratelimit_cluster');
let server: OwnRedis;
let admin: Redis;
let cluster: Cluster;

beforeAll(async () => {
  // A one-node Redis Cluster owning every slot: it enforces CROSSSLOT exactly like a large one.
  server = await startOwnRedis([
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-announce-ip',
    '127.0.0.1',
  ]);
  admin = new Redis(server.url);
  await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
  await waitUntil(
    async () => String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'),
    10_000,
  );
  cluster = new Cluster([{ host: '127.0.0.1', port: server.port }], {
    enableOfflineQueue: false,
    redisOptions: rateLimitRedisOptions({ commandTimeout: 2_000 }),
  });
  cluster.on('error', () => undefined);
  await waitUntil(() => cluster.status === 'ready', 10_000);
});

afterAll(async () => {
  cluster.disconnect();
  admin.disconnect();
  await server.stop();
});

describe('on Redis Cluster', () => {
  const rules: LimitRule[] = [
    { name: 'api-per-minute', limit: 3, windowMs: MINUTE, onRedisDown: 'closed' },
    { name: 'api-per-day', limit: 1_000, windowMs: 24 * 60 * MINUTE, subWindows: 24, onRedisDown: 'closed' },
  ];

  it('the server really refuses a multi-key script whose keys are in different slots', async () => {
    await expect(
      cluster.eval("return redis.call('GET', KEYS[1])", 2, `${prefix}:a:x`, `${prefix}:b:y`),
    ).rejects.toThrow(/CROSSSLOT/);
  });

  it('checks and charges two windows of one subject in one script, since their keys share a hash tag', async () => {
    const limiter = createRateLimiter({ redis: cluster, keyPrefix: prefix, timeoutMs: 2_000 });
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push(await limiter.consume('tenant:{odd}', rules));
    expect(decisions.map((d) => [d.allowed, d.source])).toEqual([
      [true, 'redis'],
      [true, 'redis'],
      [true, 'redis'],
      [false, 'redis'],
    ]);
    const keys = await admin.keys(`${prefix}:*`);
    expect(keys).toHaveLength(2);
    const slots = await Promise.all(keys.map((key) => admin.call('CLUSTER', 'KEYSLOT', key)));
    expect(new Set(slots).size).toBe(1);
  });
});
