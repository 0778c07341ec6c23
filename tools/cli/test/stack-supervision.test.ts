import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freeLoopbackPort, infraUrls, testIdentityEnv, testNamespace } from '@tap/testkit';
import { startStack, waitUntilReady, type Stack, type StackService } from '../src/commands/stack.js';
import { restartDelayMs } from '../src/commands/supervisor.js';

/** Polls until `condition` holds; bounded. */
async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe('the restart backoff of the local stack', () => {
  it('starts at 0.5 s and doubles up to 30 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 50].map((attempt) => restartDelayMs(attempt))).toEqual([
      500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });
});

describe('npm run up supervising its services', () => {
  let stack: Stack | undefined;
  let pkiDir: string | undefined;
  afterAll(async () => {
    await stack?.stop();
    if (pkiDir) await rm(pkiDir, { recursive: true, force: true });
  }, 20_000);

  it('restarts a service killed with SIGKILL, with a loud line, and stops without restarting', async () => {
    const urls = infraUrls();
    const ns = testNamespace('stack');
    const port = async () => String(await freeLoopbackPort());
    const [identityGrpc, identityHttp, entitlementsGrpc, entitlementsHttp] = await Promise.all([
      port(),
      port(),
      port(),
      port(),
    ]);
    const common = {
      MONGO_URL: urls.mongoUrl,
      NATS_URL: urls.natsUrl,
      REDIS_URL: urls.redisUrl,
      OPERATOR_TOKEN: 'stack-test-operator-token-0123456789abcdef',
      KEY_ENCRYPTION_SECRET: 'stack-test-key-encryption-secret-0123456789',
      LOG_LEVEL: 'warn',
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${identityGrpc}`,
    };
    pkiDir = await mkdtemp(join(tmpdir(), 'stack-pki-'));
    const services: StackService[] = [
      {
        name: 'identity',
        entry: 'services/identity/dist/main.js',
        readyUrl: `http://127.0.0.1:${identityHttp}/readyz`,
        env: {
          ...common,
          ...(await testIdentityEnv(pkiDir, 'identity')),
          IDENTITY_GRPC_PORT: identityGrpc,
          IDENTITY_HTTP_PORT: identityHttp,
          IDENTITY_MONGO_DB: `${ns}_i`,
        },
      },
      {
        name: 'entitlements',
        entry: 'services/entitlements/dist/main.js',
        readyUrl: `http://127.0.0.1:${entitlementsHttp}/readyz`,
        env: {
          ...common,
          ...(await testIdentityEnv(pkiDir, 'entitlements')),
          ENTITLEMENTS_GRPC_PORT: entitlementsGrpc,
          ENTITLEMENTS_HTTP_PORT: entitlementsHttp,
          ENTITLEMENTS_MONGO_DB: `${ns}_e`,
          ENTITLEMENTS_CONSUMER: `${ns}_e`,
          EVENTS_STREAM: ns.toUpperCase(),
          EVENTS_SUBJECT_PREFIX: ns,
        },
      },
    ];
    let err = '';
    stack = startStack(services, {
      output: { out: { write: () => true }, err: { write: (text: string) => (err += text) } },
    });
    await waitUntilReady(
      services.map((s) => s.readyUrl),
      60_000,
    );
    const entitlements = stack.processes[1]!;
    const first = entitlements.pid();
    expect(first).toBeDefined();

    process.kill(first!, 'SIGKILL');
    await until(() => err.includes('[stack] !!! entitlements DIED'));
    expect(err).toContain('[stack] !!! entitlements DIED (signal SIGKILL); restart #1 in 0.5 s !!!');
    await until(() => entitlements.pid() !== undefined && entitlements.pid() !== first);
    await waitUntilReady([services[1]!.readyUrl], 60_000);
    expect(entitlements.restarts()).toBe(1);

    await stack.stop();
    const linesAtStop = err;
    await sleep(1_500);
    expect(err).toBe(linesAtStop);
    expect(err).not.toContain('identity DIED');
    expect(stack.processes.map((p) => [p.name, p.pid(), p.restarts()])).toEqual([
      ['identity', undefined, 0],
      ['entitlements', undefined, 1],
    ]);
  }, 120_000);
});
