import { unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { anyUser, open } from '../auth/access.js';
import { forwardedAuth } from '../auth/caller.js';
import { clientAddressKey } from '../auth/client-address.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit, refreshTokenSubject } from '../auth/auth-limits.js';
import { throttledLogin } from '../auth/login-throttle.js';
import { sessionClientOf } from '../auth/session-client.js';
import { ok } from '../envelope.js';
import { noContent } from '../openapi/responses.js';
import { useOAuthErrors } from '../plugins/oauth-errors.js';
import { registerRoutes, routesOf, type RouteOperation } from './define-route.js';
import { LoginBody, RefreshBody } from './identity-request-schemas.js';
import { loginResponse, refreshResponse } from './identity-schemas.js';

const route = routesOf<{ clients: ServiceClients; limiter: RateLimiter }>();
const authV1 = (operationId: string, summary: string, errors: readonly (401 | 429)[]): RouteOperation => ({
  operationId,
  tag: 'auth-v1',
  summary,
  errorStyle: 'oauth',
  errors,
});

/**
 * Bearer login (spec "Bearer login"): `POST /auth/login`, `/auth/refresh`, `/auth/logout`.
 * Errors are OAuth-style; a wrong email or password is one answer, whichever it was.
 */
export const AUTH_V1_ROUTES = [
  route('POST /auth/login', {
    schema: { body: LoginBody, response: loginResponse },
    access: open('credentials in the body; limited per address and per account'),
    // 401 invalid_client (any wrong email or password); 429 the address's or the account's limit.
    operation: authV1('login', 'Sign in with email and password: access and refresh token', [401, 429]),
    handler:
      ({ clients, limiter }) =>
      async (request, reply) => {
        await enforceAuthLimit(limiter, 'login', `ip:${clientAddressKey(request.ip)}`, reply);
        const { email, password } = request.body;
        const session = await throttledLogin(request, reply, { limiter, email }, () =>
          unaryCall(clients.identity, 'Login', { email, password, client: sessionClientOf(request) }),
        );
        const user = session.user!;
        return ok({
          accessToken: session.accessToken,
          refreshToken: session.refreshToken,
          user: { id: user.id, email: user.email, role: user.role },
        });
      },
  }),
  // The spec does not name the fields; they are login's, for clients that handle both alike.
  route('POST /auth/refresh', {
    schema: { body: RefreshBody, response: refreshResponse },
    access: open('the refresh token is the credential; limited per token'),
    // 401 invalid_token (expired, revoked or reused); 429 the address's or the token's limit.
    operation: authV1(
      'refresh',
      'Rotate a refresh token: a new pair; reuse of an old one ends the session',
      [401, 429],
    ),
    handler:
      ({ clients, limiter }) =>
      async (request, reply) => {
        await enforceAddressLimit(limiter, 'refresh', request.ip, reply);
        await enforceAuthLimit(limiter, 'refresh', refreshTokenSubject(request.body.refreshToken), reply);
        const session = await unaryCall(clients.identity, 'Refresh', {
          refreshToken: request.body.refreshToken,
        });
        return ok({ accessToken: session.accessToken, refreshToken: session.refreshToken });
      },
  }),
  // 204 like /auth/v2/logout; the session's access tokens are refused from this answer on.
  route('POST /auth/logout', {
    access: anyUser('ends the signed-in session the token belongs to'),
    operation: {
      ...authV1('logout', "End the token's session", []),
      extraResponses: noContent('Signed out'),
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        await unaryCall(clients.identity, 'Logout', {}, forwardedAuth(request));
        return reply.status(204).send();
      },
  }),
] as const;

/** Registers AUTH_V1_ROUTES: OAuth-style errors, JSON bodies only. */
export async function authV1Routes(
  app: FastifyInstance,
  options: { clients: ServiceClients; limiter: RateLimiter },
): Promise<void> {
  useOAuthErrors(app);
  // JSON only: without this Fastify would hand text/plain bodies to the schema as strings.
  app.removeContentTypeParser('text/plain');
  registerRoutes(app, AUTH_V1_ROUTES, options);
}
