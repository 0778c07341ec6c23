import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unaryCall } from '@tap/grpc-kit';
import {
  freeLoopbackPort,
  infraUrls,
  startLocalServer,
  testIdentityEnv,
  testNamespace,
  type StartedServer,
} from '@tap/testkit';
import {
  probe,
  READY_BOUND_MS,
  startServiceProcess,
  untilReady,
  type ServiceProcess,
} from './support/service-process.js';
import { identityClientAt } from './support/service-tls.js';
import { waitFor } from './support/wait-for.js';

const OPERATOR_TOKEN = 'process-test-operator-token-0123456789abcd';
const SECRETS = { OPERATOR_TOKEN, KEY_ENCRYPTION_SECRET: 'process-test-key-encryption-secret-0123456' };

const running: ServiceProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const service of running) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

// Each service's certificate from the test PKI, as files (GRPC_TLS_*).
const tlsEnv: Record<string, Record<string, string>> = {};
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'lifecycle-pki-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  for (const name of ['identity', 'entitlements', 'adoption', 'gateway'])
    tlsEnv[name] = await testIdentityEnv(dir, name);
});

function start(name: string, env: Record<string, string | undefined>): ServiceProcess {
  // REDIS_URL for every service: adoption and entitlements read the revocation list too.
  const service = startServiceProcess(name, {
    ...SECRETS,
    REDIS_URL: infraUrls().redisUrl,
    ...tlsEnv[name],
    ...env,
  });
  running.push(service);
  return service;
}

describe('configuration at start-up', () => {
  it('stops a service with a malformed MONGO_URL with one line naming the variable', async () => {
    const service = start('entitlements', {
      MONGO_URL: 'mongodb://user:secret@',
      ENTITLEMENTS_GRPC_PORT: '0',
      ENTITLEMENTS_HTTP_PORT: '0',
    });
    const { code } = await service.exited();
    expect(code).toBe(78);
    const lines = service.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^entitlements: invalid configuration: MONGO_URL /);
    expect(service.stderr()).not.toContain('secret@');
  });

  it('names every bad variable at once', async () => {
    const service = start('identity', {
      MONGO_URL: 'http://nope',
      IDENTITY_GRPC_PORT: 'abc',
      KEY_ENCRYPTION_SECRET: 'short',
    });
    expect((await service.exited()).code).toBe(78);
    const variables = service
      .stderr()
      .trim()
      .split('\n')
      .map((line) => line.split(' ')[3]);
    expect(variables.sort()).toEqual(['IDENTITY_GRPC_PORT', 'KEY_ENCRYPTION_SECRET', 'MONGO_URL']);
  });
});

describe('a database that is not there yet', () => {
  it(
    'keeps the service alive and not ready, and it becomes ready once the database appears',
    async () => {
      const mongoPort = await freeLoopbackPort();
      const httpPort = await freeLoopbackPort();
      const service = start('entitlements', {
        NATS_URL: infraUrls().natsUrl,
        MONGO_URL: `mongodb://127.0.0.1:${mongoPort}/`,
        ENTITLEMENTS_MONGO_DB: testNamespace('late_db'),
        ENTITLEMENTS_GRPC_PORT: String(await freeLoopbackPort()),
        ENTITLEMENTS_HTTP_PORT: String(httpPort),
      });
      await waitFor(async () =>
        (await probe(`http://127.0.0.1:${httpPort}/healthz`)) === 200 ? true : undefined,
      );
      expect(await probe(`http://127.0.0.1:${httpPort}/readyz`)).toBe(503);
      // Still alive and still not ready a moment later: it retries instead of crashing.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(service.child.exitCode).toBeNull();
      expect(await probe(`http://127.0.0.1:${httpPort}/readyz`)).toBe(503);

      const dataDir = mkdtempSync(join(tmpdir(), 'late-db-'));
      const database: StartedServer = await startLocalServer('mongo', {
        ports: mongoPort,
        dataDir,
        env: process.env,
      });
      cleanups.push(async () => {
        await database.stop();
        rmSync(dataDir, { recursive: true, force: true });
      });
      await untilReady(service, `http://127.0.0.1:${httpPort}/readyz`);

      service.child.kill('SIGTERM');
      expect((await service.exited()).code).toBe(0);
    },
    READY_BOUND_MS + 60_000,
  );
});

describe('SIGTERM while requests are in flight', () => {
  it(
    'lets the requests finish and exits 0 within 5 s, for the gateway and for a gRPC service',
    async () => {
      const urls = infraUrls();
      const ns = testNamespace('sigterm');
      const port = async () => String(await freeLoopbackPort());
      const ports = {
        identity: await port(),
        entitlements: await port(),
        adoption: await port(),
        gateway: await port(),
      };
      const addresses = {
        IDENTITY_GRPC_ADDRESS: `127.0.0.1:${ports.identity}`,
        ENTITLEMENTS_GRPC_ADDRESS: `127.0.0.1:${ports.entitlements}`,
        ADOPTION_GRPC_ADDRESS: `127.0.0.1:${ports.adoption}`,
      };
      const common = {
        MONGO_URL: urls.mongoUrl,
        NATS_URL: urls.natsUrl,
        REDIS_URL: urls.redisUrl,
        ...addresses,
      };
      const identity = start('identity', {
        ...common,
        IDENTITY_MONGO_DB: `${ns}_i`,
        IDENTITY_GRPC_PORT: ports.identity,
        IDENTITY_HTTP_PORT: await port(),
      });
      const entitlementsHttp = await port();
      // Entitlements gets a database of its own, so the test can pause it without touching others.
      const privateDir = mkdtempSync(join(tmpdir(), 'sigterm-db-'));
      const privateDb = await startLocalServer('mongo', {
        ports: 'free',
        dataDir: privateDir,
        env: process.env,
      });
      cleanups.push(async () => {
        await privateDb.stop();
        rmSync(privateDir, { recursive: true, force: true });
      });
      const entitlements = start('entitlements', {
        ...common,
        MONGO_URL: privateDb.url,
        ENTITLEMENTS_CONSUMER: `${ns}_e`,
        EVENTS_STREAM: ns.toUpperCase(),
        EVENTS_SUBJECT_PREFIX: ns,
        ENTITLEMENTS_MONGO_DB: `${ns}_e`,
        ENTITLEMENTS_GRPC_PORT: ports.entitlements,
        ENTITLEMENTS_HTTP_PORT: entitlementsHttp,
      });
      start('adoption', {
        ...common,
        ADOPTION_MONGO_DB: `${ns}_a`,
        ADOPTION_GRPC_PORT: ports.adoption,
        ADOPTION_HTTP_PORT: await port(),
        EVENTS_STREAM: ns.toUpperCase(),
        EVENTS_SUBJECT_PREFIX: ns,
        ADOPTION_CONSUMER: ns,
      });
      const gateway = start('gateway', { ...common, GATEWAY_PORT: ports.gateway });
      const base = `http://127.0.0.1:${ports.gateway}`;
      await untilReady(gateway, `${base}/readyz`);
      await untilReady(entitlements, `http://127.0.0.1:${entitlementsHttp}/readyz`);

      const client = await identityClientAt(addresses.IDENTITY_GRPC_ADDRESS);
      const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
      const tenant = await unaryCall(client, 'CreateTenant', { name: 'Sigterm Ltd', slug: '' }, operator);
      const { accessToken } = await unaryCall(
        client,
        'IssueAccessToken',
        { tenantId: tenant.id, role: 'OWNER', scopes: [], subject: '' },
        operator,
      );
      client.close();
      const call = () =>
        fetch(`${base}/api/v1/tenant`, {
          headers: { authorization: `Bearer ${accessToken}` },
          signal: AbortSignal.timeout(10_000),
        }).then(
          (response) => ({ status: response.status as number | string, at: Date.now() }),
          () => ({ status: 'network error' as number | string, at: Date.now() }),
        );
      expect((await call()).status).toBe(200);

      // The gateway: hold requests in flight by pausing identity (SIGSTOP), so that every request
      // of the burst has certainly been accepted when SIGTERM arrives; then let identity go on.
      // Each must be answered 200, and the gateway must exit 0 within 5 s.
      identity.child.kill('SIGSTOP');
      const held = Array.from({ length: 40 }, call);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const gatewaySignalledAt = Date.now();
      gateway.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      identity.child.kill('SIGCONT');
      const heldOutcomes = await Promise.all(held);
      const gatewayStopped = await gateway.exited();
      expect(heldOutcomes.map((o) => o.status)).toEqual(held.map(() => 200));
      expect(gatewayStopped.code).toBe(0);
      expect(gatewayStopped.at - gatewaySignalledAt).toBeLessThan(5_000);

      // A gRPC service, behind a fresh gateway: hold its calls inside its handlers by pausing its
      // database, signal it, then let the database go on. Every held call must be answered 200.
      const gatewayAgain = start('gateway', { ...common, GATEWAY_PORT: ports.gateway });
      await untilReady(gatewayAgain, `${base}/readyz`);
      expect((await call()).status).toBe(200);
      process.kill(privateDb.pid!, 'SIGSTOP');
      const inHandlers = Array.from({ length: 40 }, call);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const signalledAt = Date.now();
      entitlements.child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));
      process.kill(privateDb.pid!, 'SIGCONT');
      const outcomes = await Promise.all(inHandlers);
      const stopped = await entitlements.exited();
      expect(outcomes.map((o) => o.status)).toEqual(inHandlers.map(() => 200));
      expect(stopped.code).toBe(0);
      expect(stopped.at - signalledAt).toBeLessThan(5_000);
      gatewayAgain.child.kill('SIGTERM');
      expect((await gatewayAgain.exited()).code).toBe(0);

      identity.child.kill('SIGTERM');
      expect((await identity.exited()).code).toBe(0);
      // Three readiness waits, each bounded by READY_BOUND_MS, and the bursts.
    },
    3 * READY_BOUND_MS + 60_000,
  );
});
