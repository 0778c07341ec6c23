import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestCookies, setCookie, type CookieAttributes } from './cookies.js';

export { requestCookies };

/** The three cookies of a browser session (spec "Cookie sessions"; docs/browser-sessions.md). */
export const SESSION_COOKIE = 'svc_session';
export const REFRESH_COOKIE = 'svc_refresh';
export const CSRF_COOKIE = 'svc_csrf';
export const CSRF_HEADER = 'x-csrf-token';

/** The access token's own lifetime (15 min); the cookie is not kept longer. */
export const SESSION_MAX_AGE_S = 15 * 60;
/** The refresh token's lifetime (7 days, spec "Other constants"). */
export const REFRESH_MAX_AGE_S = 7 * 24 * 3600;
/** The refresh cookie goes only to the /auth/v2 endpoints, never to the rest of the API. */
export const REFRESH_COOKIE_PATH = '/api/v1/auth/v2';

export interface CookieSettings {
  /** The parent domain the cookies are scoped to (`COOKIE_DOMAIN`); host-only when absent. */
  readonly domain?: string | undefined;
}

const attributes = (settings: CookieSettings) =>
  ({
    session: {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      maxAge: SESSION_MAX_AGE_S,
      domain: settings.domain,
    },
    refresh: {
      httpOnly: true,
      sameSite: 'strict',
      path: REFRESH_COOKIE_PATH,
      maxAge: REFRESH_MAX_AGE_S,
      domain: settings.domain,
    },
    // Readable by the page's script, which echoes it in X-CSRF-Token (double submit).
    csrf: { httpOnly: false, sameSite: 'lax', path: '/', maxAge: REFRESH_MAX_AGE_S, domain: settings.domain },
  }) satisfies Record<string, CookieAttributes>;

/** A fresh double-submit token: 32 random bytes, base64url. */
export function newCsrfToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Sets the three cookies; the CSRF token is kept across refreshes (it belongs to the browser). */
export function setSessionCookies(
  reply: FastifyReply,
  settings: CookieSettings,
  tokens: { accessToken: string; refreshToken: string; csrfToken: string },
): void {
  const a = attributes(settings);
  setCookie(reply, SESSION_COOKIE, tokens.accessToken, a.session);
  setCookie(reply, REFRESH_COOKIE, tokens.refreshToken, a.refresh);
  setCookie(reply, CSRF_COOKIE, tokens.csrfToken, a.csrf);
  void reply.header('cache-control', 'no-store');
}

/** Deletes the three cookies (same names, paths and domain, Max-Age 0). */
export function clearSessionCookies(reply: FastifyReply, settings: CookieSettings): void {
  const a = attributes(settings);
  setCookie(reply, SESSION_COOKIE, '', { ...a.session, maxAge: 0 });
  setCookie(reply, REFRESH_COOKIE, '', { ...a.refresh, maxAge: 0 });
  setCookie(reply, CSRF_COOKIE, '', { ...a.csrf, maxAge: 0 });
  void reply.header('cache-control', 'no-store');
}

/**
 * The double-submit rule: the `X-CSRF-Token` header equals the `svc_csrf` cookie, both present.
 * Compared in constant time (over fixed-length digests, so lengths leak nothing either).
 */
export function csrfHeaderMatches(request: FastifyRequest, cookies: ReadonlyMap<string, string>): boolean {
  const header = request.headers[CSRF_HEADER];
  const cookie = cookies.get(CSRF_COOKIE);
  if (typeof header !== 'string' || !header || !cookie) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(header), digest(cookie));
}

/** Methods that change nothing; the CSRF rule applies to every other one. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
