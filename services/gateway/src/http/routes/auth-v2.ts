import { GrpcStatus, isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { open } from '../auth/access.js';
import { clientAddressKey } from '../auth/client-address.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit, refreshTokenSubject } from '../auth/auth-limits.js';
import { throttledLogin } from '../auth/login-throttle.js';
import { sessionClientOf } from '../auth/session-client.js';
import { cookieSessionUser } from '../browser/cookie-user.js';
import { enforceOriginAllowlist } from '../browser/origin-allowlist.js';
import {
  clearSessionCookies,
  CSRF_COOKIE,
  csrfHeaderMatches,
  newCsrfToken,
  REFRESH_COOKIE,
  requestCookies,
  SESSION_COOKIE,
  setSessionCookies,
} from '../browser/session-cookies.js';
import { ok } from '../envelope.js';
import { gatewayError } from '../errors/catalogue.js';
import type { HttpError } from '../errors/http-error.js';
import { sendHttpError } from '../errors/send-http-error.js';
import type { ErrorStatus } from '../openapi/error-responses.js';
import { noContent } from '../openapi/responses.js';
import { useErrorStyle } from '../plugins/error-handler.js';
import { registerRoutes, routesOf, type Route, type RouteOperation } from './define-route.js';
import { LoginBody } from './identity-request-schemas.js';
import { browserLoginResponse } from './identity-schemas.js';

/** What the browser surface needs from configuration (docs/browser-sessions.md). */
export interface BrowserSessionSettings {
  readonly allowedOrigins: ReadonlySet<string>;
  readonly cookieDomain?: string | undefined;
}

export interface AuthV2Options {
  readonly clients: ServiceClients;
  readonly limiter: RateLimiter;
  readonly browser: BrowserSessionSettings;
}

const csrfRefused = () => gatewayError('CSRF_TOKEN_INVALID');

/** A new cookie session (login, a redeemed link, an accepted invitation): its cookies and a fresh CSRF token. */
export function startCookieSession(
  reply: FastifyReply,
  browser: BrowserSessionSettings,
  session: { readonly accessToken: string; readonly refreshToken: string },
): void {
  setSessionCookies(
    reply,
    { domain: browser.cookieDomain },
    { accessToken: session.accessToken, refreshToken: session.refreshToken, csrfToken: newCsrfToken() },
  );
}
const refuse = (reply: FastifyReply, error: HttpError) => sendHttpError(reply, error);
const route = routesOf<AuthV2Options>();

/**
 * What the document says of a route of the browser surface: its body per status is /auth/v2's
 * (`useV2Errors`), and every one may answer 403 ORIGIN_NOT_ALLOWED (the Origin allowlist) beside
 * the statuses of its own.
 */
export const browserOperation = (
  operationId: string,
  summary: string,
  errors: readonly ErrorStatus[],
  extraResponses?: RouteOperation['extraResponses'],
): RouteOperation => ({
  operationId,
  tag: 'auth-v2',
  summary,
  errorStyle: 'browser',
  errors: [403, ...errors],
  ...(extraResponses ? { extraResponses } : {}),
});

/**
 * Cookie sessions (spec "Cookie sessions"): `POST /auth/v2/login`, `/refresh`, `/logout`. Every
 * route is behind the Origin/Referer allowlist; refresh and logout, being authenticated by the
 * cookies, also need the double-submit CSRF header.
 */
export const AUTH_V2_ROUTES = [
  route('POST /auth/v2/login', {
    schema: { body: LoginBody, response: browserLoginResponse },
    access: open('Origin allowlist; limited per address and per account'),
    // 401 INVALID_CREDENTIALS; 429 the address's or the account's limit.
    operation: browserOperation(
      'browserLogin',
      'Sign in: sets the session, refresh and CSRF cookies',
      [401, 429],
    ),
    handler:
      ({ clients, limiter, browser }) =>
      async (request, reply) => {
        await enforceAuthLimit(limiter, 'login', `ip:${clientAddressKey(request.ip)}`, reply);
        const { email, password } = request.body;
        const throttle = { limiter, email, device: { cookieDomain: browser.cookieDomain } };
        const session = await throttledLogin(request, reply, throttle, () =>
          unaryCall(clients.identity, 'Login', {
            email,
            password,
            channel: 'cookie',
            client: sessionClientOf(request),
          }),
        );
        const user = await cookieSessionUser(clients, session.user!, session.accessToken);
        startCookieSession(reply, browser, session);
        return ok({ user });
      },
  }),
  route('POST /auth/v2/refresh', {
    access: open('Origin allowlist, refresh cookie and CSRF header'),
    // 401 REFRESH_TOKEN_INVALID; 403 also CSRF_TOKEN_INVALID; 429 the address's or the token's limit.
    operation: browserOperation(
      'browserRefresh',
      'Rotate the session from the refresh cookie (needs X-CSRF-Token)',
      [401, 429],
      noContent('Rotated; new cookies set'),
    ),
    handler:
      ({ clients, limiter, browser }) =>
      async (request, reply) => {
        const cookieSettings = { domain: browser.cookieDomain };
        const cookies = requestCookies(request);
        const refreshToken = cookies.get(REFRESH_COOKIE);
        if (!refreshToken) {
          return refuse(reply, gatewayError('REFRESH_TOKEN_INVALID'));
        }
        if (!csrfHeaderMatches(request, cookies)) return refuse(reply, csrfRefused());
        await enforceAddressLimit(limiter, 'refresh', request.ip, reply);
        await enforceAuthLimit(limiter, 'refresh', refreshTokenSubject(refreshToken), reply);
        try {
          const session = await unaryCall(clients.identity, 'Refresh', { refreshToken, channel: 'cookie' });
          setSessionCookies(reply, cookieSettings, {
            accessToken: session.accessToken,
            refreshToken: session.refreshToken,
            csrfToken: cookies.get(CSRF_COOKIE)!,
          });
          return reply.status(204).send();
        } catch (error) {
          // A dead session's cookies are of no further use to the browser; a 503 keeps them.
          if (isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED)
            clearSessionCookies(reply, cookieSettings);
          throw error;
        }
      },
  }),
  // Idempotent: without cookies (or with dead ones) it still answers 204 and clears them. Both
  // cookies are ended on their own: an invalid, expired or foreign svc_session must not leave
  // the refresh family in svc_refresh alive. A 503 keeps the cookies, so logout can be retried.
  route('POST /auth/v2/logout', {
    access: open('Origin allowlist and CSRF header; idempotent'),
    // 403 also CSRF_TOKEN_INVALID.
    operation: browserOperation(
      'browserLogout',
      'End the cookie session and clear the cookies (idempotent)',
      [],
      noContent('Signed out; cookies cleared'),
    ),
    handler:
      ({ clients, browser }) =>
      async (request, reply) => {
        const cookies = requestCookies(request);
        const accessToken = cookies.get(SESSION_COOKIE);
        const refreshToken = cookies.get(REFRESH_COOKIE);
        if ((accessToken || refreshToken) && !csrfHeaderMatches(request, cookies))
          return refuse(reply, csrfRefused());
        if (accessToken) await revokeSession(clients, accessToken);
        // Still alive after that (another session, or the access cookie was not valid): end it too.
        const fromRefresh = refreshToken ? await accessFromRefresh(clients, refreshToken) : undefined;
        if (fromRefresh) await revokeSession(clients, fromRefresh);
        clearSessionCookies(reply, { domain: browser.cookieDomain });
        return reply.status(204).send();
      },
  }),
] as const;

/**
 * Registers a group of the browser surface: /auth/v2's error style, JSON bodies only, and the
 * Origin allowlist on every route.
 */
export function registerBrowserRoutes(
  app: FastifyInstance,
  routes: readonly Route<AuthV2Options>[],
  options: AuthV2Options,
): void {
  useErrorStyle(app, 'v2');
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', enforceOriginAllowlist(options.browser.allowedOrigins));
  registerRoutes(app, routes, options);
}

/** Registers AUTH_V2_ROUTES. */
export async function authV2Routes(app: FastifyInstance, options: AuthV2Options): Promise<void> {
  registerBrowserRoutes(app, AUTH_V2_ROUTES, options);
}

async function revokeSession(clients: ServiceClients, accessToken: string): Promise<void> {
  try {
    await unaryCall(clients.identity, 'Logout', {}, { authorization: `Bearer ${accessToken}` });
  } catch (error) {
    // An expired, malformed or already revoked session is logged out already.
    if (!(isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED)) throw error;
  }
}

/**
 * The session behind a refresh token, by rotating it once (refresh tokens carry no session id
 * the gateway could revoke directly); undefined when the family is already dead.
 */
async function accessFromRefresh(clients: ServiceClients, refreshToken: string): Promise<string | undefined> {
  try {
    const session = await unaryCall(clients.identity, 'Refresh', { refreshToken, channel: 'cookie' });
    return session.accessToken;
  } catch (error) {
    if (isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED) return undefined;
    throw error;
  }
}
