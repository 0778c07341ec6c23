import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contracts } from '@tap/contracts';
import { createClient, unaryCall } from '@tap/grpc-kit';
import { freeLoopbackPort, infraUrls, startLocalServer, testNamespace, type StartedServer } from '@tap/testkit';
import { probe, startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { waitFor } from './support/wait-for.js';

const OPERATOR_TOKEN = 'process-test-operator-token-0123456789abcd';
const SECRETS = { OPERATOR_TOKEN, KEY_ENCRYPTION_SECRET: 'process-test-key-encryption-secret-0123456' };

const running: ServiceProcess[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const service of running) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

function start(name: string, env: Record<string, string | undefined>): ServiceProcess {
  const service = startServiceProcess(name, { ...SECRETS, ...env });
  running.push(service);
  return service;
}

describe('configuration at start-up', () => {
  it('stops a service with a malformed MONGO_URL with one line naming the variable', async () => {
    const service = start('entitlements', { MONGO_URL: 'mongodb://user:secret@', ENTITLEMENTS_GRPC_PORT: '0', ENTITLEMENTS_HTTP_PORT: '0' });
    const { code } = await service.exited();
    expect(code).toBe(78);
    const lines = service.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^entitlements: invalid configuration: MONGO_URL /);
    expect(service.stderr()).not.toContain('secret@');
  });

  it('names every bad variable at once', async () => {
    const service = start('identity', { MONGO_URL: 'http://nope', IDENTITY_GRPC_PORT: 'abc', KEY_ENCRYPTION_SECRET: 'short' });
    expect((await service.exited()).code).toBe(78);
    const variables = service.stderr().trim().split('\n').map((line) => line.split(' ')[3]);
    expect(variables.sort()).toEqual(['IDENTITY_GRPC_PORT', 'KEY_ENCRYPTION_SECRET', 'MONGO_URL']);
  });
});

describe('a database that is not there yet', () => {
  it('keeps the service alive and not ready, and it becomes ready once the database appears', async () => {
    const mongoPort = await freeLoopbackPort();
    const httpPort = await freeLoopbackPort();
    const service = start('entitlements', {
      MONGO_URL: `mongodb://127.0.0.1:${mongoPort}/`,
      ENTITLEMENTS_MONGO_DB: testNamespace('late_db'),
      ENTITLEMENTS_GRPC_PORT: String(await freeLoopbackPort()),
      ENTITLEMENTS_HTTP_PORT: String(httpPort),
    });
    await waitFor(async () => ((await probe(`http://127.0.0.1:${httpPort}/healthz`)) === 200 ? true : undefined));
    expect(await probe(`http://127.0.0.1:${httpPort}/readyz`)).toBe(503);
    // Still alive and still not ready a moment later: it retries instead of crashing.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(service.child.exitCode).toBeNull();
    expect(await probe(`http://127.0.0.1:${httpPort}/readyz`)).toBe(503);

    const dataDir = mkdtempSync(join(tmpdir(), 'late-db-'));
    const database: StartedServer = await startLocalServer('mongo', { ports: mongoPort, dataDir, env: process.env });
    cleanups.push(async () => {
      await database.stop();
      rmSync(dataDir, { recursive: true, force: true });
    });
    await waitFor(async () => ((await probe(`http://127.0.0.1:${httpPort}/readyz`)) === 200 ? true : undefined), 20_000, 200);

    service.child.kill('SIGTERM');
    expect((await service.exited()).code).toBe(0);
  });
});

describe('SIGTERM while requests are in flight', () => {
  it('lets the requests finish and exits 0 within 5 s, for the gateway and for a gRPC service', async () => {
    const urls = infraUrls();
    const ns = testNamespace('sigterm');
    const port = async () => String(await freeLoopbackPort());
    const ports = { identity: await port(), entitlements: await port(), adoption: await port(), gateway: await port() };
    const addresses = {
      IDENTITY_GRPC_ADDRESS: `127.0.0.1:${ports.identity}`,
      ENTITLEMENTS_GRPC_ADDRESS: `127.0.0.1:${ports.entitlements}`,
      ADOPTION_GRPC_ADDRESS: `127.0.0.1:${ports.adoption}`,
    };
    const common = { MONGO_URL: urls.mongoUrl, NATS_URL: urls.natsUrl, REDIS_URL: urls.redisUrl, ...addresses };
    const identity = start('identity', { ...common, IDENTITY_MONGO_DB: `${ns}_i`, IDENTITY_GRPC_PORT: ports.identity, IDENTITY_HTTP_PORT: await port() });
    const entitlementsHttp = await port();
    const entitlements = start('entitlements', { ...common, ENTITLEMENTS_MONGO_DB: `${ns}_e`, ENTITLEMENTS_GRPC_PORT: ports.entitlements, ENTITLEMENTS_HTTP_PORT: entitlementsHttp });
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
    await waitFor(async () => ((await probe(`${base}/readyz`)) === 200 ? true : undefined), 30_000, 200);
    await waitFor(async () => ((await probe(`http://127.0.0.1:${entitlementsHttp}/readyz`)) === 200 ? true : undefined), 30_000, 200);

    const client = createClient(contracts().identity.IdentityService, addresses.IDENTITY_GRPC_ADDRESS);
    const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
    const tenant = await unaryCall(client, 'CreateTenant', { name: 'Sigterm Ltd', slug: '' }, operator);
    const { accessToken } = await unaryCall(client, 'IssueAccessToken', { tenantId: tenant.id, role: 'OWNER', scopes: [], subject: '' }, operator);
    client.close();
    const call = () =>
      fetch(`${base}/api/v1/tenant`, { headers: { authorization: `Bearer ${accessToken}` }, signal: AbortSignal.timeout(10_000) }).then(
        (response) => ({ status: response.status as number | string, at: Date.now() }),
        () => ({ status: 'network error' as number | string, at: Date.now() }),
      );
    expect((await call()).status).toBe(200);

    // Signal as soon as the first answer of a burst arrives: the rest are in flight somewhere
    // between the gateway and the service, and must be answered, not dropped.
    const burstThenSignal = async (target: ServiceProcess) => {
      const burst = Array.from({ length: 200 }, call);
      await Promise.race(burst);
      const signalledAt = Date.now();
      target.child.kill('SIGTERM');
      const outcomes = await Promise.all(burst);
      const stopped = await target.exited();
      return { outcomes, signalledAt, stopped };
    };

    // A gRPC service first: calls it already took are finished before it exits.
    const grpcRun = await burstThenSignal(entitlements);
    expect(grpcRun.stopped.code).toBe(0);
    expect(grpcRun.stopped.at - grpcRun.signalledAt).toBeLessThan(5_000);
    expect(grpcRun.outcomes.filter((o) => o.status !== 200 && o.status !== 503)).toEqual([]);
    expect(grpcRun.outcomes.filter((o) => o.status === 200 && o.at > grpcRun.signalledAt).length).toBeGreaterThan(0);

    // Then the gateway itself (entitlements is gone now, so its answers are 503s, never 500s or resets).
    const gatewayRun = await burstThenSignal(gateway);
    expect(gatewayRun.stopped.code).toBe(0);
    expect(gatewayRun.stopped.at - gatewayRun.signalledAt).toBeLessThan(5_000);
    expect(gatewayRun.outcomes.filter((o) => o.status !== 503)).toEqual([]);

    identity.child.kill('SIGTERM');
    expect((await identity.exited()).code).toBe(0);
  });
});
