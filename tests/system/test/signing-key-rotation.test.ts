import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { OPERATOR_TOKEN, startSystem, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';

const CLI = fileURLToPath(new URL('../../../tools/cli/dist/main.js', import.meta.url));
const run = promisify(execFile);
const kidOf = (jwt: string): string =>
  (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;

describe('signing-key rotation from the operator CLI while tokens are in use', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('key_rotation', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Rotating Co');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const status = async (token: string) =>
    (await system.http('GET', '/api/v1/tenant', { headers: { authorization: `Bearer ${token}` } })).status;

  it('keeps old tokens working, signs new ones with the new key, and never refuses a valid token meanwhile', async () => {
    const session = await fx.signIn(owner);
    const client = await fx.oauthClient(owner.tenantId, ['dpp:read']);
    const clientToken = await fx.clientToken(client.clientId, client.clientSecret);
    const oldKid = kidOf(session.accessToken);
    expect(await status(session.accessToken)).toBe(200);

    // Traffic the whole time: any 401 of a valid token would be downtime.
    let stop = false;
    const statuses: number[] = [];
    const traffic = (async () => {
      for (let i = 0; i < 10_000 && !stop; i += 1)
        statuses.push(await status(session.accessToken), await status(clientToken));
    })();

    const { stdout } = await run(process.execPath, [CLI, 'rotate-signing-key'], {
      env: {
        ...process.env,
        ...system.operatorEnv,
        OPERATOR_TOKEN,
        IDENTITY_GRPC_ADDRESS: system.addresses.identity,
      },
    });
    const rotated = JSON.parse(stdout) as {
      kid: string;
      previousKid: string;
      activatesAt: string;
      previousRetiresAt: string;
    };
    expect(rotated.previousKid).toBe(oldKid);
    expect(Date.parse(rotated.previousRetiresAt) - Date.parse(rotated.activatesAt)).toBeGreaterThan(900_000);

    // The new key signs once it has been published long enough.
    const fresh = await waitFor(
      async () => {
        const pair = await fx.signIn(owner);
        return kidOf(pair.accessToken) === rotated.kid ? pair : undefined;
      },
      10_000,
      250,
    );
    const refreshed = ((await fx.refresh(session.refreshToken)).body as { data: { accessToken: string } })
      .data;
    const freshClientToken = await fx.clientToken(client.clientId, client.clientSecret);
    stop = true;
    await traffic;

    expect(statuses.length).toBeGreaterThan(10);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(kidOf(refreshed.accessToken)).toBe(rotated.kid);
    expect(kidOf(freshClientToken)).toBe(rotated.kid);
    for (const token of [
      session.accessToken,
      clientToken,
      fresh.accessToken,
      refreshed.accessToken,
      freshClientToken,
    ])
      expect(await status(token)).toBe(200);
  });

  it('refuses a second rotation while the first is still being published', async () => {
    const env = {
      ...process.env,
      ...system.operatorEnv,
      OPERATOR_TOKEN,
      IDENTITY_GRPC_ADDRESS: system.addresses.identity,
    };
    await run(process.execPath, [CLI, 'rotate-signing-key'], { env });
    await expect(run(process.execPath, [CLI, 'rotate-signing-key'], { env })).rejects.toMatchObject({
      stderr: expect.stringContaining('SIGNING_KEY_ROTATION_CONFLICT'),
    });
  });
});
