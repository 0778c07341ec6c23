import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { createRateLimitRedis } from '@tap/ratelimit';
import { freeLoopbackPort, infraUrls, startOidcProvider, type OidcTestProvider } from '@tap/testkit';
import { Browser, CookieJar } from './support/cookie-jar.js';
import { signInAtProvider } from './support/sso-sign-in.js';
import { openIdentityFixtures, type Account, type IdentityFixtures } from './support/identity-fixtures.js';
import { OPERATOR_TOKEN, SYSTEM_ORIGIN, startSystem, type System } from './support/system.js';

const KEYS = ['enterprise', 'consumer'] as const;
type Key = (typeof KEYS)[number];
const SECRET = 'sso-test-client-secret-0123456789';

describe('single sign-on with two OpenID Providers (spec: "Single sign-on")', () => {
  let system: System;
  let fx: IdentityFixtures;
  let owner: Account;
  const providers = {} as Record<Key, OidcTestProvider>;
  let port = 0;
  let n = 0;

  beforeAll(async () => {
    port = await freeLoopbackPort();
    for (const key of KEYS) {
      providers[key] = await startOidcProvider({
        clientId: `tap-${key}`,
        clientSecret: SECRET,
        redirectUris: [`http://127.0.0.1:${port}/api/v1/auth/v2/sso/${key}/callback`],
      });
    }
    system = await startSystem('sso', {
      gatewayPort: port,
      // Each browser has its own address: SSO starts are limited per address (docs/security.md).
      trustProxyHops: 1,
      ssoProviders: KEYS.map((key) => ({
        key,
        issuer: providers[key].issuer,
        clientId: `tap-${key}`,
        clientSecret: SECRET,
      })),
    });
    fx = await openIdentityFixtures(system);
    owner = await fx.tenantWithOwner('SSO Works');
  });
  afterAll(async () => {
    await fx?.close();
    await system?.stop();
    await Promise.all(KEYS.map((key) => providers[key]?.stop()));
  });

  const V2 = '/api/v1/auth/v2';
  let browsers = 0;
  const freshBrowser = () => new Browser(system, new CookieJar(), `198.51.100.${(browsers += 1) % 250}`);
  const location = (response: { status: number; headers: Headers }) => {
    expect(response.status).toBe(302);
    return response.headers.get('location') ?? '';
  };

  /** Start at the gateway, sign in at the provider as `sub`; the callback URL (path and query) the provider sends back. */
  const signIn = async (
    browser: Browser,
    key: Key,
    sub: string,
    returnTo = '/dashboard',
  ): Promise<string> => {
    const start = await browser.request(
      'GET',
      `${V2}/sso/${key}/start?returnTo=${encodeURIComponent(returnTo)}`,
      { origin: null, redirect: 'manual' },
    );
    const next = location(start);
    expect(next.startsWith(`${providers[key].issuer}/`)).toBe(true);
    const authorize = new URL(next);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    return signInAtProvider(`http://127.0.0.1:${port}`, providers[key], next, sub);
  };
  const callback = (browser: Browser, path: string) =>
    browser.request('GET', path, { origin: null, redirect: 'manual' });
  const account = (key: Key, email: string) => {
    n += 1;
    const sub = `${key}-subject-${n}`;
    providers[key].addAccount({ sub, email, givenName: 'Sam', familyName: 'Single' });
    return sub;
  };
  const freshDomain = () => `sso-${Date.now()}-${(n += 1)}.example`;
  const errorPage = (reason: string) => `${SYSTEM_ORIGIN}/auth/sso/error?reason=${reason}`;

  describe.each(KEYS)('provider %s', (key) => {
    it('new founder: a tenant and owner are provisioned, the session is set and the browser goes to returnTo; the returning user signs in again', async () => {
      const email = `founder@${freshDomain()}`;
      const sub = account(key, email);
      const browser = freshBrowser();
      const done = await callback(browser, await signIn(browser, key, sub));
      expect(location(done)).toBe(`${SYSTEM_ORIGIN}/dashboard`);
      expect(browser.jar.get('svc_session')).toBeDefined();
      expect(browser.jar.get('svc_sso')).toBeUndefined();
      const tenant = await browser.request('GET', '/api/v1/tenant');
      expect(tenant.status).toBe(200);

      const again = freshBrowser();
      const second = await callback(again, await signIn(again, key, sub, '/reports?x=1'));
      expect(location(second)).toBe(`${SYSTEM_ORIGIN}/reports?x=1`);
      expect((await again.request('GET', '/api/v1/tenant')).body).toEqual(tenant.body);
    });

    it('existing account with the same email: confirmation by magic link first, then linked', async () => {
      const sub = account(key, owner.email);
      const browser = freshBrowser();
      const since = system.mail.messages.length;
      const done = await callback(browser, await signIn(browser, key, sub));
      expect(location(done)).toBe(`${SYSTEM_ORIGIN}/auth/sso/confirm-email`);
      expect(browser.jar.get('svc_session')).toBeUndefined();
      const mail = await system.mail.waitForMessage(owner.email, { since, timeoutMs: 5_000 });
      const token = /#token=(\S+)/.exec(mail.text)![1]!;
      const redeemed = await browser.post(`${V2}/magic-link/redeem`, { body: { token } });
      expect(redeemed.status).toBe(200);
      expect(redeemed.body).toMatchObject({ data: { user: { id: owner.userId } } });

      const later = freshBrowser();
      expect(location(await callback(later, await signIn(later, key, sub)))).toBe(
        `${SYSTEM_ORIGIN}/dashboard`,
      );
      expect(later.jar.get('svc_session')).toBeDefined();
    });

    it('a domain that gates joins: a join request and no session', async () => {
      const gated = freshDomain();
      await unaryCall(
        fx.identity,
        'ClaimJoinDomain',
        { tenantId: owner.tenantId, domain: gated },
        { authorization: `Operator ${OPERATOR_TOKEN}` },
      );
      const email = `joiner@${gated}`;
      const browser = freshBrowser();
      const done = await callback(browser, await signIn(browser, key, account(key, email)));
      expect(location(done)).toBe(`${SYSTEM_ORIGIN}/auth/sso/pending-approval`);
      expect(browser.jar.get('svc_session')).toBeUndefined();
      const requests = await unaryCall(
        fx.identity,
        'ListJoinRequests',
        { tenantId: owner.tenantId },
        { authorization: `Operator ${OPERATOR_TOKEN}` },
      );
      expect(requests.requests.map((r) => r.email)).toContain(email);
    });
  });

  describe('bad input fails the flow with a redirect to the error page', () => {
    it('a replayed state (the callback used twice)', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'enterprise', account('enterprise', `r@${freshDomain()}`));
      const copy = browser.fork();
      expect(location(await callback(browser, path))).toBe(`${SYSTEM_ORIGIN}/dashboard`);
      expect(location(await callback(copy, path))).toBe(errorPage('invalid_state'));
    });

    it('an expired state (its 10-minute TTL run out)', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'enterprise', account('enterprise', `e@${freshDomain()}`));
      const redis = createRateLimitRedis(infraUrls().redisUrl, {
        commandTimeout: 1_000,
        enableOfflineQueue: true,
      });
      try {
        const keys = await redis.keys(`${system.redisPrefix}sso:*`);
        expect(keys.length).toBeGreaterThan(0);
        for (const key of keys) expect(await redis.pttl(key)).toBeLessThanOrEqual(10 * 60_000);
        for (const key of keys) await redis.pexpire(key, 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        redis.disconnect();
      }
      expect(location(await callback(browser, path))).toBe(errorPage('invalid_state'));
    });

    it('a forged state, and a state without its browser cookie', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'consumer', account('consumer', `f@${freshDomain()}`));
      const forged = path.replace(/state=[^&]+/, 'state=forged-state-value');
      expect(location(await callback(browser.fork(), forged))).toBe(errorPage('invalid_state'));
      const otherBrowser = freshBrowser();
      expect(location(await callback(otherBrowser, path))).toBe(errorPage('invalid_state'));
    });

    it('a code issued by one provider presented at the other provider’s callback', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'enterprise', account('enterprise', `m@${freshDomain()}`));
      const swapped = path.replace('/sso/enterprise/callback', '/sso/consumer/callback');
      expect(location(await callback(browser, swapped))).toBe(errorPage('provider_mismatch'));
      expect(browser.jar.get('svc_session')).toBeUndefined();
    });

    it('a tampered authorization code', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'consumer', account('consumer', `t@${freshDomain()}`));
      const tampered = path.replace(/code=([^&]+)/, (_m, code: string) => `code=${code.slice(0, -2)}xx`);
      expect(location(await callback(browser, tampered))).toBe(errorPage('token_invalid'));
    });

    it('a tampered ID token (its signature changed by the provider’s answer)', async () => {
      const browser = freshBrowser();
      const path = await signIn(browser, 'enterprise', account('enterprise', `i@${freshDomain()}`));
      providers.enterprise.tamperNextIdToken();
      expect(location(await callback(browser, path))).toBe(errorPage('token_invalid'));
      expect(browser.jar.get('svc_session')).toBeUndefined();
    });

    it.each(['//evil.example', 'https://evil.example', '/\\evil.example'])(
      'returnTo %s',
      async (returnTo) => {
        const response = await freshBrowser().request(
          'GET',
          `${V2}/sso/enterprise/start?returnTo=${encodeURIComponent(returnTo)}`,
          {
            origin: null,
            redirect: 'manual',
          },
        );
        expect(location(response)).toBe(errorPage('invalid_return_to'));
      },
    );

    it('an unknown provider, and a foreign Origin', async () => {
      const unknown = await freshBrowser().request('GET', `${V2}/sso/nope/start`, {
        origin: null,
        redirect: 'manual',
      });
      expect(location(unknown)).toBe(errorPage('unknown_provider'));
      const foreign = await freshBrowser().request('GET', `${V2}/sso/enterprise/start`, {
        origin: 'https://evil.example',
        redirect: 'manual',
      });
      expect(location(foreign)).toBe(errorPage('origin_not_allowed'));
    });
  });
});
