import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { GrpcStatus, isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ServiceClients } from '../../clients.js';
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
import { useErrorStyle } from '../plugins/error-handler.js';
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

/**
 * Cookie sessions (spec "Cookie sessions"): `POST /auth/v2/login`, `/refresh`, `/logout`. Every
 * route is behind the Origin/Referer allowlist; refresh and logout, being authenticated by the
 * cookies, also need the double-submit CSRF header.
 */
export async function authV2Routes(instance: FastifyInstance, options: AuthV2Options): Promise<void> {
  // Request and reply types come from the TypeBox schemas (identity-request-schemas.ts,
  // identity-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { clients, limiter, browser } = options;
  const cookieSettings = { domain: browser.cookieDomain };
  useErrorStyle(instance, 'v2');
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', enforceOriginAllowlist(browser.allowedOrigins));

  const refuse = (reply: FastifyReply, error: HttpError) => sendHttpError(reply, error);

  app.post(
    '/auth/v2/login',
    { schema: { body: LoginBody, response: browserLoginResponse } },
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
      setSessionCookies(reply, cookieSettings, {
        accessToken: session.accessToken,
        refreshToken: session.refreshToken,
        csrfToken: newCsrfToken(),
      });
      return ok({ user });
    },
  );

  app.post('/auth/v2/refresh', async (request, reply) => {
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
  });

  // Idempotent: without cookies (or with dead ones) it still answers 204 and clears them. Both
  // cookies are ended on their own: an invalid, expired or foreign svc_session must not leave
  // the refresh family in svc_refresh alive. A 503 keeps the cookies, so logout can be retried.
  app.post('/auth/v2/logout', async (request, reply) => {
    const cookies = requestCookies(request);
    const accessToken = cookies.get(SESSION_COOKIE);
    const refreshToken = cookies.get(REFRESH_COOKIE);
    if ((accessToken || refreshToken) && !csrfHeaderMatches(request, cookies))
      return refuse(reply, csrfRefused());
    if (accessToken) await revokeSession(accessToken);
    // Still alive after that (another session, or the access cookie was not valid): end it too.
    const fromRefresh = refreshToken ? await accessFromRefresh(refreshToken) : undefined;
    if (fromRefresh) await revokeSession(fromRefresh);
    clearSessionCookies(reply, cookieSettings);
    return reply.status(204).send();
  });

  async function revokeSession(accessToken: string): Promise<void> {
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
  async function accessFromRefresh(refreshToken: string): Promise<string | undefined> {
    try {
      const session = await unaryCall(clients.identity, 'Refresh', { refreshToken, channel: 'cookie' });
      return session.accessToken;
    } catch (error) {
      if (isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED) return undefined;
      throw error;
    }
  }
}
