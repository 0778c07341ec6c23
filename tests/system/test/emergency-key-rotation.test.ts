import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { OPERATOR_TOKEN, startSystem, type HttpResponse, type System } from './support/system.js';

const CLI = fileURLToPath(new URL('../../../tools/cli/dist/main.js', import.meta.url));
const run = promisify(execFile);
const kidOf = (jwt: string): string =>
  (JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as { kid: string }).kid;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Short, so the test waits for the verifiers' refresh in well under a minute. */
const REFRESH_MS = 500;

describe('emergency signing-key rotation (a key compromise)', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('emergency_keys', { trustProxyHops: 1, jwksRefreshIntervalMs: REFRESH_MS });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Compromised Co');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const get = (token: string, path = '/api/v1/tenant') =>
    system.http('GET', path, { headers: { authorization: `Bearer ${token}` } });
  const rotate = async (...flags: string[]) => {
    const { stdout } = await run(process.execPath, [CLI, 'rotate-signing-key', ...flags], {
      env: {
        ...process.env,
        ...system.operatorEnv,
        OPERATOR_TOKEN,
        IDENTITY_GRPC_ADDRESS: system.addresses.identity,
      },
    });
    return JSON.parse(stdout) as {
      kid: string;
      previousKid: string;
      activatesAt: string;
      previousRetiresAt: string;
    };
  };
  const refusal = (response: HttpResponse) => ({
    status: response.status,
    body: response.body,
    challenge: response.headers.get('www-authenticate'),
  });

  it("refuses the old key's tokens within the refresh interval, as it refuses a bad signature, and accepts the new key's at once", async () => {
    const session = await fx.signIn(owner);
    const client = await fx.oauthClient(owner.tenantId, ['dpp:read']);
    const clientToken = await fx.clientToken(client.clientId, client.clientSecret);
    const oldKid = kidOf(session.accessToken);
    // Verified and remembered by the gateway's verification cache.
    for (const token of [session.accessToken, clientToken, session.accessToken])
      expect((await get(token)).status).toBe(200);
    const badSignature = refusal(await get(await fx.forge({}, { key: 'stranger', kid: oldKid })));
    expect(badSignature.status).toBe(401);

    const rotated = await rotate('--retire-previous-now');
    const rotatedAt = Date.now();
    expect(rotated.previousKid).toBe(oldKid);
    expect(rotated.previousRetiresAt).toBe(rotated.activatesAt);

    // No publish-ahead: the next sign-in carries the new key, and the gateway takes it at once.
    const fresh = await fx.signIn(owner);
    expect(kidOf(fresh.accessToken)).toBe(rotated.kid);
    expect((await get(fresh.accessToken)).status).toBe(200);
    const freshClientToken = await fx.clientToken(client.clientId, client.clientSecret);
    expect(kidOf(freshClientToken)).toBe(rotated.kid);
    expect((await get(freshClientToken)).status).toBe(200);

    // The old token is refused from the verifiers' next refresh on, and never accepted after that.
    let refusedSentAt: number | undefined;
    for (let sentAt = Date.now(); sentAt - rotatedAt < 10 * REFRESH_MS; sentAt = Date.now()) {
      const status = (await get(session.accessToken)).status;
      if (refusedSentAt !== undefined) expect(status).toBe(401);
      else if (status === 401) refusedSentAt = sentAt;
      if (refusedSentAt !== undefined && sentAt - refusedSentAt > REFRESH_MS) break;
      await sleep(25);
    }
    expect(refusedSentAt).toBeDefined();
    // Within the refresh interval plus the JWKS fetch and the request's own time: bounded at four
    // intervals so a loaded machine's slow fetch (1,004 ms once, against 500 + 500) does not fail
    // it, while a verifier that never refreshes still would (the loop watches ten intervals).
    expect(refusedSentAt! - rotatedAt).toBeLessThan(4 * REFRESH_MS);
    // Same answer as a wrongly signed token: nothing new for clients to handle.
    expect(refusal(await get(session.accessToken))).toEqual(badSignature);
    expect(refusal(await get(clientToken))).toEqual(badSignature);

    // The session itself survives: its refresh token answers a token of the new key.
    const refreshed = await fx.refresh(session.refreshToken);
    expect(refreshed.status).toBe(200);
    const renewed = (refreshed.body as { data: { accessToken: string } }).data.accessToken;
    expect(kidOf(renewed)).toBe(rotated.kid);
    for (const token of [renewed, fresh.accessToken, freshClientToken])
      expect((await get(token)).status).toBe(200);
  });

  it("keeps the old key's tokens working through a normal rotation, across many refreshes", async () => {
    const session = await fx.signIn(owner);
    expect((await get(session.accessToken)).status).toBe(200);
    const rotated = await rotate();
    expect(Date.parse(rotated.previousRetiresAt) - Date.parse(rotated.activatesAt)).toBeGreaterThan(900_000);
    await sleep(5 * REFRESH_MS);
    expect((await get(session.accessToken)).status).toBe(200);
    expect(kidOf((await fx.signIn(owner)).accessToken)).toBe(rotated.kid);
  });

  // Last: identity does not come back.
  it('keeps verifying with the last key set while identity is down', async () => {
    const used = await fx.signIn(owner);
    const unused = await fx.signIn(owner);
    const usage = '/api/v1/entitlements/usage';
    expect((await get(used.accessToken, usage)).status).toBe(200);

    await system.stopIdentity();
    // Several refreshes fail meanwhile (each waits out its gRPC deadline).
    await sleep(6 * REFRESH_MS);
    expect((await get(used.accessToken, usage)).status).toBe(200);
    // Never seen by the gateway: verified by jose against the kept key set.
    expect((await get(unused.accessToken, usage)).status).toBe(200);
    // Identity's own routes are unavailable, not unauthorised.
    expect((await get(used.accessToken)).status).toBe(503);
  });
});
