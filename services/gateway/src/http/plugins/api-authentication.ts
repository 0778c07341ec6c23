import { InvalidTokenError, type AccessClaims, type TokenVerifier } from '@tap/tokens';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionRevocations } from '../../session-revocations.js';
import { ambiguousCredentials } from '../auth/ambiguous-credentials.js';
import { rememberCaller } from '../auth/caller.js';
import { checkRequirement, type AuthRequirement } from '../auth/requirements.js';
import { RouteTableError, type RouteAccess } from '../auth/access.js';
import { routeAccess } from '../auth/route-table.js';
import {
  csrfHeaderMatches,
  isSafeMethod,
  requestCookies,
  SESSION_COOKIE,
} from '../browser/session-cookies.js';
import { gatewayError, oauthError } from '../errors/catalogue.js';
import { invalidToken } from '../errors/http-error.js';
import { sendHttpError } from '../errors/send-http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route table's decision for this route, set as it registers (never by the route itself). */
    access?: RouteAccess;
  }
}

export { RouteTableError } from '../auth/access.js';

export interface ApiAuthenticationOptions {
  readonly prefix: string;
  readonly verifier: TokenVerifier;
  /** Required: no path authenticates a token without asking whether its session was revoked. */
  readonly revocations: SessionRevocations;
}

const BEARER = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/;
const REFUSED = 'The access token is expired, malformed or revoked';

/**
 * Authentication of the whole API scope, registered once (inside the `/api/v1` plugin). As each
 * route registers, the route table (http/auth/route-table.ts, built from the routes'
 * declarations) gives it its decision; a route without one, or one that writes its own, stops
 * the gateway from building (an endpoint nobody decided on must not exist, and a test that
 * builds the app finds it). On every request
 * one onRequest hook then refuses ambiguous credentials on every route (two Authorization
 * headers, or a bearer with the session cookie: 400 invalid_request, auth/ambiguous-credentials.ts),
 * lets `public` routes pass and authenticates every other one: the bearer
 * token (or the `svc_session` cookie plus the double-submit `X-CSRF-Token` on unsafe methods,
 * docs/browser-sessions.md), verified here and forwarded unchanged; the revocation list (logout
 * takes effect at once, not at expiry); then the table's requirement (users, roles, scope).
 */
export const apiAuthenticationPlugin = fp(async (app: FastifyInstance, options: ApiAuthenticationOptions) => {
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(`${options.prefix}/`)) return;
    const path = route.url.slice(options.prefix.length);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const entries = methods.map((method) => ({ method, entry: routeAccess(method, path) }));
    const missing = entries.find((e) => e.entry === undefined);
    if (missing) {
      throw new RouteTableError(
        'ROUTE_WITHOUT_REQUIREMENT',
        `${missing.method} ${route.url} has no declaration (http/routes/all-routes.ts)`,
      );
    }
    if (route.config?.access !== undefined || route.config?.auth !== undefined) {
      throw new RouteTableError(
        'ROUTE_REQUIREMENT_OUTSIDE_TABLE',
        `${route.url} sets its own requirement; it belongs in its declaration`,
      );
    }
    route.config = { ...route.config, access: entries[0]!.entry! };
  });
  app.addHook('onRequest', async (request, reply) => {
    // Before the public check: a login, refresh or token request with two credentials is as
    // ambiguous as an API call with two, and every route of the scope refuses it alike.
    const ambiguity = ambiguousCredentials(request);
    if (ambiguity) return sendHttpError(reply, oauthError('invalid_request', ambiguity));
    const access = request.routeOptions.config.access;
    if (access?.access === 'public') return undefined;
    // No decision (a route outside the table's reach) is treated as the strictest: a token.
    return authenticate(request, reply, options, access?.auth ?? {});
  });
});

async function authenticate(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ApiAuthenticationOptions,
  requirement: AuthRequirement,
): Promise<FastifyReply | undefined> {
  const header = request.headers.authorization;
  let token = header ? BEARER.exec(header)?.[1] : undefined;
  if (!header) {
    const cookies = requestCookies(request);
    token = cookies.get(SESSION_COOKIE);
    if (token && !isSafeMethod(request.method) && !csrfHeaderMatches(request, cookies))
      return sendHttpError(reply, gatewayError('CSRF_TOKEN_INVALID'));
  }
  if (!token) return sendHttpError(reply, invalidToken('A bearer token is required'));
  let claims: AccessClaims;
  try {
    claims = await options.verifier.verify(token);
  } catch (error) {
    if (error instanceof InvalidTokenError) return sendHttpError(reply, invalidToken(REFUSED));
    throw error;
  }
  // Same answer as any other bad token: a revoked one says nothing more about the session.
  if (await options.revocations.isRevoked(claims.sessionId))
    return sendHttpError(reply, invalidToken(REFUSED));
  const refusal = checkRequirement(claims, requirement);
  if (refusal) return sendHttpError(reply, refusal);
  rememberCaller(request, { claims, authorization: `Bearer ${token}` });
  return undefined;
}
