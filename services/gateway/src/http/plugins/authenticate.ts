import { InvalidTokenError, type AccessClaims, type TokenVerifier } from '@tap/tokens';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { invalidToken } from '../errors/http-error.js';

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
 * and forwards it unchanged, so every service verifies it again (zero trust).
 */
export const authenticatePlugin = fp(async (app: FastifyInstance, options: { verifier: TokenVerifier }) => {
  app.decorateRequest('auth', undefined);
  app.decorate('authenticate', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers.authorization;
    const token = header ? BEARER.exec(header)?.[1] : undefined;
    const refuse = (description: string) => {
      const error = invalidToken(description);
      for (const [name, value] of Object.entries(error.headers ?? {})) void reply.header(name, value);
      return reply.status(error.status).send(error.body);
    };
    if (!token) return refuse('A bearer token is required');
    try {
      const claims = await options.verifier.verify(token);
      request.auth = { claims, authorization: `Bearer ${token}` };
    } catch (error) {
      if (error instanceof InvalidTokenError) return refuse('The access token is expired, malformed or revoked');
      throw error;
    }
    return undefined;
  });
});
