import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect as netConnect } from 'node:net';
import { startInfrastructure, testNamespace, type Infrastructure } from '../src/index.js';

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = netConnect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('startInfrastructure without URLs in the environment', () => {
  let infra: Infrastructure;

  beforeAll(async () => {
    infra = await startInfrastructure({ env: { PATH: process.env['PATH'] } });
  });

  afterAll(async () => {
    await infra?.stop();
  });

  it('starts MongoDB-wire, NATS and Redis servers on loopback', async () => {
    expect(infra.sources).toEqual({ mongo: 'local', nats: 'local', redis: 'local' });
    for (const url of [infra.mongoUrl, infra.natsUrl, infra.redisUrl]) {
      expect(new URL(url).hostname).toBe('127.0.0.1');
      await expect(reachable(url)).resolves.toBe(true);
    }
  });

  it('stops every server it started', async () => {
    const other = await startInfrastructure({ env: { PATH: process.env['PATH'] } });
    await other.stop();
    for (const url of [other.mongoUrl, other.natsUrl, other.redisUrl]) {
      await expect(reachable(url)).resolves.toBe(false);
    }
  });
});

describe('startInfrastructure with URLs in the environment', () => {
  it('takes them as they are and starts nothing', async () => {
    const env = {
      MONGO_URL: 'mongodb://db.invalid:1/',
      NATS_URL: 'nats://mq.invalid:2',
      REDIS_URL: 'redis://kv.invalid:3',
    };
    const infra = await startInfrastructure({ env });
    expect(infra.mongoUrl).toBe(env.MONGO_URL);
    expect(infra.natsUrl).toBe(env.NATS_URL);
    expect(infra.redisUrl).toBe(env.REDIS_URL);
    expect(infra.sources).toEqual({ mongo: 'env', nats: 'env', redis: 'env' });
    await infra.stop();
  });
});

describe('testNamespace', () => {
  it('gives distinct names that are safe for databases, key prefixes and streams', () => {
    const names = new Set(Array.from({ length: 50 }, () => testNamespace('My Suite.v1')));
    expect(names.size).toBe(50);
    for (const name of names) expect(name).toMatch(/^t_my_suite_v1_[0-9a-f]{8}$/);
  });
});
