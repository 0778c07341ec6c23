import { createRedisDependency, Readiness } from '@tap/runtime';
import { redisSessionRevocations, type SessionRevocations } from '@tap/service-auth';
import { revocationKey } from '@tap/tokens';
import { infraUrls } from '@tap/testkit';

const silent = { info: () => undefined, warn: () => undefined };

/** The revocation list on the run's real Redis, under this test file's own key prefix. */
export interface TestRevocations {
  readonly revocations: SessionRevocations;
  /** Marks `sessionId` revoked, as identity does on logout. */
  revoke(sessionId: string): Promise<void>;
  close(): Promise<void>;
}

export async function testRevocations(namespace: string): Promise<TestRevocations> {
  const redis = createRedisDependency({
    url: infraUrls().redisUrl,
    name: namespace,
    readiness: new Readiness(),
    logger: silent,
    commandTimeoutMs: 1_000,
  });
  for (let waited = 0; redis.status !== 'ready' && waited < 10_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  const prefix = `${namespace}:revoked`;
  return {
    revocations: redisSessionRevocations(redis, prefix),
    async revoke(sessionId) {
      await redis.set(revocationKey(prefix, sessionId), '1', 'EX', 600);
    },
    async close() {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}
