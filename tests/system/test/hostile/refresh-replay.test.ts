import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Browser } from '../support/cookie-jar.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, type System } from '../support/system.js';

/*
 * Refresh-token replay (docs/identity.md, "reuse detection"): presenting a refresh token that
 * was already rotated twice can only be a stolen copy, so the whole family ends: the thief's
 * token, the victim's current one and every access token of the session.
 */

const V2 = '/api/v1/auth/v2';

describe('refresh-token replay', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  let addresses = 0;

  beforeAll(async () => {
    system = await startSystem('hostile_refresh', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('Replay Farm');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const tenantWith = (accessToken: string) =>
    system.http('GET', '/api/v1/tenant', { headers: { authorization: `Bearer ${accessToken}` } });

  it('v1: reusing a rotated-out refresh token revokes the family, and the thief gets nothing', async () => {
    const first = await fx.signIn(owner);
    const second = await fx.refresh(first.refreshToken);
    expect(second.status).toBe(200);
    const secondPair = (second.body as { data: { accessToken: string; refreshToken: string } }).data;
    const third = await fx.refresh(secondPair.refreshToken);
    expect(third.status).toBe(200);
    const current = (third.body as { data: { accessToken: string; refreshToken: string } }).data;
    expect((await tenantWith(current.accessToken)).status).toBe(200);

    const replay = await fx.refresh(first.refreshToken);
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });

    // The victim's current tokens went with it: the session is over for everyone.
    expect((await fx.refresh(current.refreshToken)).status).toBe(401);
    expect((await tenantWith(current.accessToken)).status).toBe(401);
    // A new sign-in is a new family and works.
    expect((await tenantWith((await fx.signIn(owner)).accessToken)).status).toBe(200);
  });

  it('v2: a replayed svc_refresh cookie revokes the cookie session of the real browser', async () => {
    const victim = new Browser(system, undefined, `203.0.113.${(addresses += 1)}`);
    expect(
      (await victim.post(`${V2}/login`, { body: { email: owner.email, password: owner.password } })).status,
    ).toBe(200);
    const stolen = victim.fork();
    expect((await victim.post(`${V2}/refresh`)).status).toBe(204);
    expect((await victim.post(`${V2}/refresh`)).status).toBe(204);
    expect((await victim.request('GET', '/api/v1/tenant')).status).toBe(200);

    // The thief's copy is two rotations old.
    const replay = await stolen.post(`${V2}/refresh`);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ success: false, error: { code: expect.any(String) } });
    expect(stolen.jar.get('svc_session')).toBeUndefined();

    expect((await victim.request('GET', '/api/v1/tenant')).status).toBe(401);
    expect((await victim.post(`${V2}/refresh`)).status).toBe(401);
  });

  it('v1: a replay answers exactly as an unknown token does (nothing tells the thief a session existed)', async () => {
    const first = await fx.signIn(owner);
    const second = (await fx.refresh(first.refreshToken)).body as { data: { refreshToken: string } };
    expect((await fx.refresh(second.data.refreshToken)).status).toBe(200);
    const replay = await fx.refresh(first.refreshToken);
    const unknown = await fx.refresh('x'.repeat(first.refreshToken.length));
    expect(replay.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(replay.body).toEqual(unknown.body);
  });
});
