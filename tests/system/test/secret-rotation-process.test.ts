import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { unaryCall } from '@tap/grpc-kit';
import { freeLoopbackPort, infraUrls, testIdentityEnv, testNamespace } from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { probe, startServiceProcess, type ServiceProcess } from './support/service-process.js';
import { identityClientAt } from './support/service-tls.js';
import { waitFor } from './support/wait-for.js';

// The whole KEY_ENCRYPTION_SECRET and OPERATOR_TOKEN procedures of docs/operations.md, with the
// built identity process and the built CLI, as an operator runs them.
const CLI = fileURLToPath(new URL('../../../tools/cli/dist/main.js', import.meta.url));
const run = promisify(execFile);

const OPERATOR_TOKEN = 'rotation-test-operator-token-0123456789abc';
const NEW_OPERATOR_TOKEN = 'rotation-test-new-operator-token-012345678';
const SECRET_A = 'rotation-test-key-encryption-secret-a-0123';
const SECRET_B = 'rotation-test-key-encryption-secret-b-0123';
const SECRET_C = 'rotation-test-key-encryption-secret-c-0123';

const running: ServiceProcess[] = [];
const pkiDir = mkdtempSync(join(tmpdir(), 'rotation-pki-'));
const database = testNamespace('secret_rotation');

afterAll(async () => {
  for (const service of running) if (service.child.exitCode === null) service.child.kill('SIGKILL');
  const mongo = new MongoClient(infraUrls().mongoUrl);
  for (const name of [database, `${database}_op`]) await mongo.db(name).dropDatabase();
  await mongo.close();
  rmSync(pkiDir, { recursive: true, force: true });
});

interface Identity {
  readonly service: ServiceProcess;
  readonly grpcAddress: string;
  readonly ready: () => Promise<number | undefined>;
  stop(): Promise<number>;
}

async function startIdentity(env: Record<string, string>): Promise<Identity> {
  const grpcPort = await freeLoopbackPort();
  const httpPort = await freeLoopbackPort();
  const service = startServiceProcess('identity', {
    MONGO_URL: infraUrls().mongoUrl,
    REDIS_URL: infraUrls().redisUrl,
    IDENTITY_MONGO_DB: database,
    IDENTITY_GRPC_PORT: String(grpcPort),
    IDENTITY_HTTP_PORT: String(httpPort),
    OPERATOR_TOKEN,
    ...(await testIdentityEnv(pkiDir, 'identity')),
    ...env,
  });
  running.push(service);
  return {
    service,
    grpcAddress: `127.0.0.1:${grpcPort}`,
    ready: () => probe(`http://127.0.0.1:${httpPort}/readyz`),
    async stop() {
      service.child.kill('SIGTERM');
      return (await service.exited()).code;
    },
  };
}

async function readyIdentity(env: Record<string, string>): Promise<Identity> {
  const identity = await startIdentity(env);
  try {
    await waitFor(async () => ((await identity.ready()) === 200 ? true : undefined), 30_000, 100);
  } catch (error) {
    throw new Error(`${(error as Error).message}; logs: ${identity.service.stdout().slice(-2_000)}`);
  }
  return identity;
}

function clientOf(identity: Identity) {
  return identityClientAt(identity.grpcAddress);
}

async function jwksKids(identity: Identity): Promise<string[]> {
  const client = await clientOf(identity);
  try {
    return (await unaryCall(client, 'GetJwks', {})).keys.map((key) => key.kid).sort();
  } finally {
    client.close();
  }
}

describe('rotating KEY_ENCRYPTION_SECRET with the identity process', () => {
  let kidsBefore: string[];
  let oauthClient: { clientId: string; clientSecret: string };
  let pinned: string;

  beforeAll(async () => {
    // Before the rotation: secret A, TOKEN_HASH_SECRET derived from it (not set).
    const identity = await readyIdentity({ KEY_ENCRYPTION_SECRET: SECRET_A });
    const client = await clientOf(identity);
    const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
    const tenant = await unaryCall(client, 'CreateTenant', { name: 'Rotation Ltd', slug: '' }, operator);
    const created = await unaryCall(
      client,
      'CreateOAuthClient',
      { name: 'ERP', scopes: ['products:read'], tenantId: tenant.id },
      operator,
    );
    oauthClient = { clientId: created.client!.clientId, clientSecret: created.clientSecret };
    await unaryCall(client, 'RotateSigningKey', {}, operator);
    client.close();
    kidsBefore = await jwksKids(identity);
    expect(await identity.stop()).toBe(0);
  });

  it('refuses KEY_ENCRYPTION_SECRET_PREVIOUS while TOKEN_HASH_SECRET is not pinned, in one line', async () => {
    const identity = await startIdentity({
      KEY_ENCRYPTION_SECRET: SECRET_B,
      KEY_ENCRYPTION_SECRET_PREVIOUS: SECRET_A,
    });
    expect((await identity.service.exited()).code).toBe(78);
    const lines = identity.service.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^identity: invalid configuration: TOKEN_HASH_SECRET is required while /);
    expect(identity.service.stderr()).not.toContain(SECRET_A);
    expect(identity.service.stderr()).not.toContain(SECRET_B);
  });

  it('pins the value the CLI prints, rolls with both secrets, then runs with the new one alone', async () => {
    pinned = (
      await run(process.execPath, [CLI, 'token-hash-secret'], {
        env: { PATH: process.env['PATH'] ?? '', KEY_ENCRYPTION_SECRET: SECRET_A },
      })
    ).stdout.trim();

    const rolling = await readyIdentity({
      KEY_ENCRYPTION_SECRET: SECRET_B,
      KEY_ENCRYPTION_SECRET_PREVIOUS: SECRET_A,
      TOKEN_HASH_SECRET: pinned,
      LOG_LEVEL: 'info',
    });
    expect(rolling.service.stdout()).toContain(
      'signing keys re-sealed under the current KEY_ENCRYPTION_SECRET',
    );
    expect(await rolling.stop()).toBe(0);

    const after = await readyIdentity({ KEY_ENCRYPTION_SECRET: SECRET_B, TOKEN_HASH_SECRET: pinned });
    expect(await jwksKids(after)).toEqual(kidsBefore);
    // The client secret was hashed under the derived key; the pinned value is the same key.
    const client = await clientOf(after);
    const granted = await unaryCall(client, 'IssueClientToken', { ...oauthClient, scope: '' });
    expect(granted.accessToken).toBeTruthy();
    client.close();
    expect(await after.stop()).toBe(0);
  });

  it('keeps a process whose secrets open no key alive and not ready, with a clear line and no secret', async () => {
    const identity = await startIdentity({
      KEY_ENCRYPTION_SECRET: SECRET_C,
      KEY_ENCRYPTION_SECRET_PREVIOUS: SECRET_A,
      TOKEN_HASH_SECRET: pinned,
    });
    // Ends on the line or on the process's exit (a signal either way); the bound is for a
    // machine so loaded that the start-up itself takes long, not a budget.
    await waitFor(
      async () =>
        identity.service.stdout().includes('opens with neither KEY_ENCRYPTION_SECRET') ||
        identity.service.child.exitCode !== null
          ? true
          : undefined,
      120_000,
    );
    expect(identity.service.stdout()).toContain('opens with neither KEY_ENCRYPTION_SECRET');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(identity.service.child.exitCode).toBeNull();
    expect(await identity.ready()).toBe(503);
    const output = identity.service.stdout() + identity.service.stderr();
    for (const secret of [SECRET_A, SECRET_B, SECRET_C, pinned]) expect(output).not.toContain(secret);
    expect(output).not.toMatch(/\n\s+at /);
    expect(await identity.stop()).toBe(0);
  });
});

describe('rotating OPERATOR_TOKEN with the identity process', () => {
  it('accepts the previous token alongside the new one and refuses any other', async () => {
    const identity = await readyIdentity({
      IDENTITY_MONGO_DB: `${database}_op`,
      KEY_ENCRYPTION_SECRET: SECRET_A,
      OPERATOR_TOKEN: NEW_OPERATOR_TOKEN,
      OPERATOR_TOKEN_PREVIOUS: OPERATOR_TOKEN,
    });
    const client = await clientOf(identity);
    const createAs = (token: string, name: string) =>
      unaryCall(client, 'CreateTenant', { name, slug: '' }, { authorization: `Operator ${token}` });
    await expect(createAs(OPERATOR_TOKEN, 'Previous Ltd')).resolves.toMatchObject({ name: 'Previous Ltd' });
    await expect(createAs(NEW_OPERATOR_TOKEN, 'Current Ltd')).resolves.toMatchObject({ name: 'Current Ltd' });
    await expect(createAs(`${NEW_OPERATOR_TOKEN}-x`, 'Third Ltd')).rejects.toMatchObject({
      reason: 'OPERATOR_ONLY',
    });
    client.close();
    expect(await identity.stop()).toBe(0);
  });
});
