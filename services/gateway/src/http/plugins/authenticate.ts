import { InvalidTokenError, type AccessClaims, type TokenVerifier } from '@tap/tokens';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { SessionRevocations } from '../../session-revocations.js';
import { checkRequirement } from '../auth/requirements.js';
import {
  csrfHeaderMatches,
  isSafeMethod,
  requestCookies,
  SESSION_COOKIE,
} from '../browser/session-cookies.js';
import { generalError, invalidToken, type HttpError } from '../errors/http-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified caller; set by the `authenticate` hook on protected routes. */
    auth: { claims: AccessClaims; authorization: string } | undefined;
  }
  interface FastifyInstance {
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/;

/**
 * Bearer authentication as a hook (not in each handler). The gateway verifies the token itself
 * and forwards it unchanged, so every service verifies it again (zero trust). It then asks the
 * revocation list about the token's session (logout must take effect at once, not at expiry)
 * and checks the route's `config.auth` requirement (scope or role). Without an Authorization
 * header the browser's `svc_session` cookie is accepted instead, and then any state-changing
 * method must carry the double-submit `X-CSRF-Token` (docs/browser-sessions.md).
 */
export const authenticatePlugin = fp(
  async (
    app: FastifyInstance,
    options: { verifier: TokenVerifier; revocations?: SessionRevocations | undefined },
  ) => {
    app.decorateRequest('auth', undefined);
    app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
      const header = request.headers.authorization;
      const send = (error: HttpError) => {
        for (const [name, value] of Object.entries(error.headers ?? {})) void reply.header(name, value);
        return reply.status(error.status).send(error.body);
      };
      const refuse = (description: string) => send(invalidToken(description));
      let token = header ? BEARER.exec(header)?.[1] : undefined;
      if (!header) {
        const cookies = requestCookies(request);
        token = cookies.get(SESSION_COOKIE);
        if (token && !isSafeMethod(request.method) && !csrfHeaderMatches(request, cookies))
          return send(
            generalError(403, 'CSRF_TOKEN_INVALID', 'The X-CSRF-Token header does not match the session'),
          );
      }
      if (!token) return refuse('A bearer token is required');
      let claims: AccessClaims;
      try {
        claims = await options.verifier.verify(token);
      } catch (error) {
        if (error instanceof InvalidTokenError)
          return refuse('The access token is expired, malformed or revoked');
        throw error;
      }
      // Same answer as any other bad token: a revoked one says nothing more about the session.
      if (options.revocations && (await options.revocations.isRevoked(claims.sessionId))) {
        return refuse('The access token is expired, malformed or revoked');
      }
      request.auth = { claims, authorization: `Bearer ${token}` };
      const refusal = checkRequirement(claims, request.routeOptions.config.auth);
      if (refusal) return send(refusal);
      return undefined;
    });
  },
);
