import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRateLimitRedis } from '@tap/ratelimit';
import { redisSsoStateStore } from '@tap/gateway';
import { freeLoopbackPort, infraUrls, startOidcProvider, type OidcTestProvider } from '@tap/testkit';
import { Browser, CookieJar } from '../support/cookie-jar.js';
import { locationOf, signInAtProvider, ssoStart } from '../support/sso-sign-in.js';
import { SYSTEM_ORIGIN, startSystem, type System } from '../support/system.js';

const KEYS = ['enterprise', 'consumer'] as const;
type Key = (typeof KEYS)[number];
const SECRET = 'open-redirect-client-secret-0123456789';

/**
 * Open-redirect variants of the SSO `returnTo` (issue #11), through the real start and callback
 * with the two test OpenID Providers: whatever a caller puts in `returnTo`, the browser ends on
 * APP_URL. The full table of values is next to the check (services/gateway/src/http/browser).
 */
describe('hostile: open redirects through SSO returnTo', () => {
  let system: System;
  let gatewayOrigin = '';
  let n = 0;
  const providers = {} as Record<Key, OidcTestProvider>;
  const redis = createRateLimitRedis(infraUrls().redisUrl);

  beforeAll(async () => {
    const port = await freeLoopbackPort();
    gatewayOrigin = `http://127.0.0.1:${port}`;
    for (const key of KEYS) {
      providers[key] = await startOidcProvider({
        clientId: `tap-${key}`,
        clientSecret: SECRET,
        redirectUris: [`${gatewayOrigin}/api/v1/auth/v2/sso/${key}/callback`],
      });
    }
    system = await startSystem('open_redirect', {
      gatewayPort: port,
      trustProxyHops: 1,
      ssoProviders: KEYS.map((key) => ({
        key,
        issuer: providers[key].issuer,
        clientId: `tap-${key}`,
        clientSecret: SECRET,
      })),
    });
  });
  afterAll(async () => {
    await system?.stop();
    await Promise.all(KEYS.map((key) => providers[key]?.stop()));
    await redis.quit();
  });

  const browser = () => new Browser(system, new CookieJar(), `203.0.113.${(n += 1) % 250}`);
  const onApp = (location: string) => new URL(location).origin === SYSTEM_ORIGIN;
  const founder = (key: Key) => {
    n += 1;
    const sub = `${key}-redirect-${n}`;
    providers[key].addAccount({
      sub,
      email: `founder@redirect-${Date.now()}-${n}.example`,
      givenName: 'Rita',
      familyName: 'Redirect',
    });
    return sub;
  };

  it.each([
    '/.//evil.example',
    '/a/..//evil.example',
    '/%2e%2e//evil.example',
    '/%2f/evil.example',
    '/%5c/evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\uff0f\uff0fevil.example',
    'javascript:alert(1)',
    'data:text/html,x',
    'https://evil.example/',
    'https://app.system-test.example@evil.example/',
    `/${'a'.repeat(600)}`,
  ])('refuses returnTo %j at the start, with the error page on APP_URL', async (returnTo) => {
    const location = locationOf(await ssoStart(browser(), 'enterprise', returnTo));
    expect(location).toBe(`${SYSTEM_ORIGIN}/auth/sso/error?reason=invalid_return_to`);
  });

  it.each<[Key, string, string]>([
    ['enterprise', '/a/../reports', '/reports'],
    ['consumer', '/x?next=//evil.example', '/x?next=//evil.example'],
    ['enterprise', '/@evil.example', '/@evil.example'],
  ])('%s: returnTo %j signs in and lands on APP_URL at %j', async (key, returnTo, path) => {
    const b = browser();
    const start = locationOf(await ssoStart(b, key, returnTo));
    expect(start.startsWith(`${providers[key].issuer}/`)).toBe(true);
    const callbackPath = await signInAtProvider(gatewayOrigin, providers[key], start, founder(key));
    const done = locationOf(await b.request('GET', callbackPath, { origin: null, redirect: 'manual' }));
    expect(done).toBe(`${SYSTEM_ORIGIN}${path}`);
    expect(onApp(done)).toBe(true);
    expect(b.jar.get('svc_session')).toBeDefined();
  });

  it('judges the stored returnTo again at the callback (a state planted in Redis cannot leave APP_URL)', async () => {
    const b = browser();
    const start = locationOf(await ssoStart(b, 'consumer', '/dashboard'));
    const state = new URL(start).searchParams.get('state')!;
    const store = redisSsoStateStore(redis, `${system.redisPrefix}sso`);
    const remembered = await store.take(state);
    expect(remembered?.returnTo).toBe('/dashboard');
    await store.put(state, { ...remembered!, returnTo: '/a/..//evil.example' }, 60_000);
    const callbackPath = await signInAtProvider(
      gatewayOrigin,
      providers.consumer,
      start,
      founder('consumer'),
    );
    const done = locationOf(await b.request('GET', callbackPath, { origin: null, redirect: 'manual' }));
    expect(done).toBe(`${SYSTEM_ORIGIN}/`);
  });
});
