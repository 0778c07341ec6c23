import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { metricsRoute, readSample } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import Fastify from 'fastify';
import { metricsPlugin } from '../src/http/plugins/metrics.js';
import { consumeLimit } from '../src/http/auth/limit-decisions.js';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');
const redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 5_000 });
beforeAll(async () => {
  if (redis.status !== 'ready') await once(redis, 'ready');
});
afterAll(async () => {
  await redis.quit();
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

async function decisionsCounted(policy: string, outcome: string): Promise<number> {
  const body = (await metricsRoute()('/metrics'))?.body ?? '';
  return readSample(body, 'ratelimit_decisions_total', { policy, outcome }) ?? 0;
}

describe('rate-limit decisions', () => {
  it('are counted by policy and outcome once the request is answered', async () => {
    const policy = `${testNamespace('decisions')}-rule`;
    const limiter = createRateLimiter({ redis, keyPrefix: testNamespace('decisions'), timeoutMs: 2_000 });
    const app = Fastify();
    await app.register(metricsPlugin);
    app.get('/limited', async (request) => {
      const decision = await consumeLimit(request, limiter, 'caller', [
        { name: policy, limit: 1, windowMs: 60_000, onRedisDown: 'closed' },
      ]);
      return { allowed: decision.allowed };
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`http://127.0.0.1:${port}/limited`, {
        signal: AbortSignal.timeout(10_000),
      });
      await response.text();
    }
    await app.close(); // onResponse hooks have run for both answers once the server is closed
    expect(await decisionsCounted(policy, 'allowed')).toBe(1);
    expect(await decisionsCounted(policy, 'refused')).toBe(1);
  });

  it('are all taken through consumeLimit (a direct limiter.consume would go uncounted)', () => {
    const direct = sourceFiles(SRC)
      .filter((file) => !file.endsWith('limit-decisions.ts'))
      .filter((file) => /\.consume\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(SRC, file));
    expect(direct).toEqual([]);
  });
});
