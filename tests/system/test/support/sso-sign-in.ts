import type { OidcTestProvider } from '@tap/testkit';
import { CookieJar, type Browser } from './cookie-jar.js';
import type { HttpResponse } from './system.js';

const V2 = '/api/v1/auth/v2';

/** The Location of a 302 (anything else fails the test that reads it). */
export function locationOf(response: HttpResponse): string {
  if (response.status !== 302) throw new Error(`expected 302, got ${response.status}`);
  return response.headers.get('location') ?? '';
}

/** `GET /auth/v2/sso/{key}/start?returnTo=…` as a top-level navigation (no Origin). */
export function ssoStart(browser: Browser, key: string, returnTo: string): Promise<HttpResponse> {
  return browser.request('GET', `${V2}/sso/${key}/start?returnTo=${encodeURIComponent(returnTo)}`, {
    origin: null,
    redirect: 'manual',
  });
}

/**
 * Follows the provider's redirects after a start (signing in as `sub` at its interaction page)
 * until it sends the browser back to the gateway; that callback path and query.
 */
export async function signInAtProvider(
  gatewayOrigin: string,
  provider: OidcTestProvider,
  authorizeUrl: string,
  sub: string,
): Promise<string> {
  let next = authorizeUrl;
  const opJar = new CookieJar();
  for (let hop = 0; hop < 10; hop += 1) {
    if (next.startsWith(`${gatewayOrigin}/`)) return next.slice(gatewayOrigin.length);
    const url = new URL(next, provider.issuer);
    if (url.pathname.startsWith('/interaction/')) url.searchParams.set('login', sub);
    const cookie = opJar.header(url.pathname);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
      signal: AbortSignal.timeout(10_000),
    });
    opJar.store(response.headers);
    await response.arrayBuffer();
    if (response.status < 300 || response.status >= 400)
      throw new Error(`provider answered ${response.status} at ${url.pathname}`);
    next = new URL(response.headers.get('location')!, url).toString();
  }
  throw new Error('too many redirects at the provider');
}
