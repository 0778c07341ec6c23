import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRateLimitRedis, type RateLimitRedis } from '@tap/ratelimit';
import { infraUrls } from '@tap/testkit';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, SYSTEM_ORIGIN, type HttpResponse, type System } from './support/system.js';

const rateLimited = { error: 'rate_limit_exceeded', error_description: expect.any(String) };
const wrongCredentials = { error: 'invalid_client', error_description: expect.any(String) };

/**
 * Per-account login throttling (docs/security.md, "Login throttling"): failures from sources
 * that never signed in to an account share one tight bucket, a source that has signed in before
 * keeps its own, and every IPv6 /48 is counted as a whole beside its /64s.
 */
describe('login throttling per account and per network', () => {
  let system: System;
  let fx: IdentityFixtures;
  let redis: RateLimitRedis;

  beforeAll(async () => {
    system = await startSystem('login_throttle', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 1_000 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await fx?.close();
    await system?.stop();
  });

  const login = (account: Pick<Account, 'email'>, password: string, ip: string): Promise<HttpResponse> =>
    system.http('POST', '/api/v1/auth/login', {
      headers: { 'x-forwarded-for': ip },
      body: { email: account.email, password },
    });
  /** One /64 after another of the attacker's single /48. */
  const attackerAddress = (i: number) => `2001:db8:66:${i.toString(16)}::1`;

  it('gives an attacker spread over the /64s of one /48 ten guesses at an account, then 429 before any password check', async () => {
    const victim = await fx.tenantWithOwner('Targeted Ltd');
    for (let i = 0; i < 10; i += 1) {
      const response = await login(victim, `guess ${i}`, attackerAddress(i));
      expect({ i, status: response.status, body: response.body }).toEqual({
        i,
        status: 401,
        body: wrongCredentials,
      });
    }
    const throttled = await login(victim, 'guess 10', attackerAddress(10));
    expect(throttled.status).toBe(429);
    expect(throttled.body).toEqual(rateLimited);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // The right password from yet another /64 is refused too: identity (and its argon2
    // verification) is not reached once the account's bucket is empty, or it would say 200.
    expect((await login(victim, victim.password, attackerAddress(11))).status).toBe(429);
  });

  it('lets at most ten of 30 wrong passwords sent at once reach the password check, the rest 429', async () => {
    const victim = await fx.tenantWithOwner('Parallel Guesses Ltd');
    // One address each (IPv4: no /48 in common), so only the account's bucket can refuse.
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => login(victim, `guess ${i}`, `192.0.2.${i + 1}`)),
    );
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });

  it('gives back the charge of a correct login: nine wrong, one right, then one more wrong still reaches the check', async () => {
    const owner = await fx.tenantWithOwner('Refunded Ltd');
    for (let i = 0; i < 9; i += 1)
      expect((await login(owner, `guess ${i}`, `198.18.0.${i + 1}`)).status).toBe(401);
    expect((await login(owner, owner.password, '198.18.1.1')).status).toBe(200);
    expect((await login(owner, 'guess 9', '198.18.0.10')).status).toBe(401);
    expect((await login(owner, 'guess 10', '198.18.0.11')).status).toBe(429);
  });

  it('lets the owner sign in from an address it signed in from before while the attacker is throttled', async () => {
    const owner = await fx.tenantWithOwner('Owned Ltd');
    const home = '198.51.100.7';
    expect((await login(owner, owner.password, home)).status).toBe(200);
    for (let i = 0; i < 10; i += 1) await login(owner, `guess ${i}`, attackerAddress(0x100 + i));
    expect((await login(owner, 'guess', attackerAddress(0x200))).status).toBe(429);
    expect((await login(owner, owner.password, home)).status).toBe(200);
    // The owner's own typos are counted in the home address's bucket, not the attacker's.
    expect((await login(owner, 'typo', home)).status).toBe(401);
    expect((await login(owner, owner.password, home)).status).toBe(200);
  });

  it("lets the owner's browser in from a new address with its device cookie while the attacker is throttled", async () => {
    const owner = await fx.tenantWithOwner('Device Ltd');
    const v2 = (ip: string, password: string, cookie?: string) =>
      system.http('POST', '/api/v1/auth/v2/login', {
        headers: { origin: SYSTEM_ORIGIN, 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
        body: { email: owner.email, password },
      });
    const first = await v2('192.0.2.50', owner.password);
    expect(first.status).toBe(200);
    const device = first.headers.getSetCookie().find((c) => c.startsWith('svc_device='));
    expect(device).toMatch(/^svc_device=[A-Za-z0-9_-]{43};.* Path=\/api\/v1\/auth\/v2;.*HttpOnly/);
    for (let i = 0; i < 10; i += 1) await login(owner, `guess ${i}`, attackerAddress(0x300 + i));
    expect((await v2('192.0.2.51', owner.password)).status).toBe(429);
    const cookie = device!.split(';')[0]!;
    expect((await v2('192.0.2.51', owner.password, cookie)).status).toBe(200);
  });

  it('counts every login attempt of one /48 together: 60 a minute, whichever accounts they aim at', async () => {
    const network = (i: number) => `2001:db8:99:${i.toString(16)}::1`;
    for (let i = 0; i < 60; i += 1) {
      const response = await login({ email: `nobody-${i}@throttle.example` }, 'guess', network(i));
      expect({ i, status: response.status }).toEqual({ i, status: 401 });
    }
    const throttled = await login({ email: 'nobody-60@throttle.example' }, 'guess', network(60));
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('x-ratelimit-policy')).toBe('login-per-ipv6-48');
    expect((await login({ email: 'nobody-61@throttle.example' }, 'guess', '2001:db8:9a::1')).status).toBe(
      401,
    );
  });

  it('sends at most 10 sign-in and sign-up links to one inbox in 15 minutes, and still answers 200', async () => {
    const owner = await fx.tenantWithOwner('Inbox Co');
    const other = await fx.tenantWithOwner('Other Inbox Co');
    const mailsTo = (email: string) => system.mail.messages.filter((m) => m.to.includes(email)).length;
    const request = (email: string, ip: string) =>
      system.http('POST', '/api/v1/auth/v2/magic-link/request', {
        headers: { origin: SYSTEM_ORIGIN, 'x-forwarded-for': ip },
        body: { email: ` ${email.toUpperCase()}` },
      });
    for (let i = 0; i < 10; i += 1)
      expect((await request(owner.email, `203.0.113.${100 + i}`)).status).toBe(200);
    for (let since = 0, n = 0; n < 10; n += 1) {
      const message = await system.mail.waitForMessage(owner.email, { since, timeoutMs: 10_000 });
      since = system.mail.messages.indexOf(message) + 1;
    }
    // The spec's "always 200 with a fixed message": past the limit the answer is the same, and no mail goes out.
    const over = await request(owner.email, '203.0.113.200');
    expect(over.status).toBe(200);
    expect(over.body).toMatchObject({ success: true });
    // A sign-up mails the same inbox: it shares the inbox's budget.
    const signup = await system.http('POST', '/api/v1/auth/v2/signup', {
      headers: { origin: SYSTEM_ORIGIN, 'x-forwarded-for': '203.0.113.201' },
      body: { email: owner.email, companyName: 'Inbox Co', firstName: 'In', lastName: 'Box' },
    });
    expect(signup.status).toBe(200);
    // Mail goes out in the order asked: once a later link to another inbox arrived, none more came to this one.
    const since = system.mail.messages.length;
    expect((await request(other.email, '203.0.113.202')).status).toBe(200);
    await system.mail.waitForMessage(other.email, { since, timeoutMs: 10_000 });
    expect(mailsTo(owner.email)).toBe(10);
  });

  it('keeps e-mail addresses out of Redis: account keys are hashes', async () => {
    const keys = await redis.keys(`${system.redisPrefix}*`);
    expect(keys.some((key) => key.includes('acct:'))).toBe(true);
    expect(keys.filter((key) => /@|throttle\.example|login-throttle/i.test(key))).toEqual([]);
  });
});
