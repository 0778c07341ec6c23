import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  FORM_HEADERS,
  form,
  openIdentityFixtures,
  type Account,
  type IdentityFixtures,
} from './support/identity-fixtures.js';
import { startSystem, type HttpResponse, type System } from './support/system.js';

/** The spec's "Limits > Authentication endpoints" answered with the OAuth-style 429. */
function expectRateLimited(response: HttpResponse, limit: number): void {
  expect(response.status).toBe(429);
  expect(response.body).toEqual({ error: 'rate_limit_exceeded', error_description: expect.any(String) });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(61);
  expect(response.headers.get('x-ratelimit-limit')).toBe(String(limit));
  expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe('authentication endpoint limits', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;

  beforeAll(async () => {
    system = await startSystem('auth_limits', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
  });
  // One account per test: failed logins are also throttled per account (login-throttling.test.ts).
  beforeEach(async () => {
    owner = await fx.tenantWithOwner('Limited Ltd');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
  });

  const loginFrom = (ip: string, password = 'wrong password, again', account = owner) =>
    system.http('POST', '/api/v1/auth/login', {
      headers: { 'x-forwarded-for': ip },
      body: { email: account.email, password },
    });

  it('allows 10 logins a minute per IP, then 429 rate_limit_exceeded with Retry-After, for right passwords too', async () => {
    for (let i = 0; i < 10; i += 1) {
      const response = await loginFrom('203.0.113.10');
      expect(response.status).toBe(401);
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(9 - i));
    }
    expectRateLimited(await loginFrom('203.0.113.10', owner.password), 10);
    // Another address is not affected (another account's: this one's unknown sources are spent).
    const neighbour = await fx.tenantWithOwner('Next Door Ltd');
    expect((await loginFrom('203.0.113.11', neighbour.password, neighbour)).status).toBe(200);
  });

  it('counts IPv6 addresses per /64, however they are written', async () => {
    const sameSlash64 = [
      '2001:db8:aa:1::1',
      '2001:db8:aa:1::2',
      '2001:0db8:00aa:0001:ffff::9',
      '2001:db8:aa:1:1:2:3:4',
    ];
    for (let i = 0; i < 10; i += 1)
      expect((await loginFrom(sameSlash64[i % sameSlash64.length]!)).status).toBe(401);
    expectRateLimited(await loginFrom('2001:db8:aa:1:dead:beef::1'), 10);
    const neighbour = await fx.tenantWithOwner('Next Door Ltd');
    expect((await loginFrom('2001:db8:aa:2::1', undefined, neighbour)).status).toBe(401);
  });

  it('counts the address the trusted proxy saw, not what the caller put further left in X-Forwarded-For', async () => {
    for (let i = 0; i < 10; i += 1) expect((await loginFrom(`10.9.9.${i}, 203.0.113.20`)).status).toBe(401);
    expectRateLimited(await loginFrom('10.0.0.99, 203.0.113.20'), 10);
  });

  it('allows 30 refreshes a minute per refresh token', async () => {
    const unknown = `00000000-0000-4000-8000-000000000000.${'Z'.repeat(43)}`;
    for (let i = 0; i < 30; i += 1) expect((await fx.refresh(unknown)).status).toBe(401);
    expectRateLimited(await fx.refresh(unknown), 30);
    const other = await fx.signIn(owner);
    expect((await fx.refresh(other.refreshToken)).status).toBe(200);
  });

  it('holds every per-request limit under parallel requests: 10 logins per address, 30 refreshes per token', async () => {
    const logins = await Promise.all(
      Array.from({ length: 25 }, () => loginFrom('203.0.113.40').then((r) => r.status)),
    );
    // Every one charged before identity ran: exactly the limit got past the address's limit.
    expect(logins.filter((status) => status === 401)).toHaveLength(10);
    expect(logins.filter((status) => status === 429)).toHaveLength(15);
    const unknown = `00000000-0000-4000-8000-000000000001.${'Y'.repeat(43)}`;
    const refreshes = await Promise.all(
      Array.from({ length: 45 }, (_, i) =>
        system
          .http('POST', '/api/v1/auth/refresh', {
            headers: { 'x-forwarded-for': `203.0.113.${100 + i}` },
            body: { refreshToken: unknown },
          })
          .then((r) => r.status),
      ),
    );
    expect(refreshes.filter((status) => status === 401)).toHaveLength(30);
    expect(refreshes.filter((status) => status === 429)).toHaveLength(15);
  });

  it('allows 60 token requests a minute per client', async () => {
    const client = await fx.oauthClient(owner.tenantId, ['dpp:read']);
    const request = (secret: string) =>
      system.http('POST', '/api/v1/oauth/token', {
        headers: FORM_HEADERS,
        body: form({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: secret }),
      });
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => request(i % 2 === 0 ? client.clientSecret : 'wrong')),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(30);
    expect(answers.filter((a) => a.status === 401).length).toBe(30);
    expectRateLimited(await request(client.clientSecret), 60);
    const another = await fx.oauthClient(owner.tenantId, ['dpp:read']);
    expect(await fx.clientToken(another.clientId, another.clientSecret)).toEqual(expect.any(String));
  });
});
