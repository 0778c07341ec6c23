import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { clientAddressKey } from '../auth/client-address.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit, refreshTokenSubject } from '../auth/auth-limits.js';
import { throttledLogin } from '../auth/login-throttle.js';
import { sessionClientOf } from '../auth/session-client.js';
import { ok } from '../envelope.js';
import { useOAuthErrors } from '../plugins/oauth-errors.js';
import { LoginBody, RefreshBody } from './identity-request-schemas.js';
import { loginResponse, refreshResponse } from './identity-schemas.js';
import { callerOf } from '../auth/caller.js';

/**
 * Bearer login (spec "Bearer login"): `POST /auth/login`, `/auth/refresh`, `/auth/logout`.
 * Errors are OAuth-style; a wrong email or password is one answer, whichever it was.
 */
export async function authV1Routes(
  instance: FastifyInstance,
  options: { clients: ServiceClients; limiter: RateLimiter },
): Promise<void> {
  // Request and reply types come from the TypeBox schemas (identity-request-schemas.ts,
  // identity-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = options.clients;
  useOAuthErrors(instance);
  // JSON only: without this Fastify would hand text/plain bodies to the schema as strings.
  app.removeContentTypeParser('text/plain');

  app.post(
    '/auth/login',
    { schema: { body: LoginBody, response: loginResponse } },
    async (request, reply) => {
      await enforceAuthLimit(options.limiter, 'login', `ip:${clientAddressKey(request.ip)}`, reply);
      const { email, password } = request.body;
      const session = await throttledLogin(request, reply, { limiter: options.limiter, email }, () =>
        unaryCall(identity, 'Login', { email, password, client: sessionClientOf(request) }),
      );
      const user = session.user!;
      return ok({
        accessToken: session.accessToken,
        refreshToken: session.refreshToken,
        user: { id: user.id, email: user.email, role: user.role },
      });
    },
  );

  // The spec does not name the fields; they are login's, for clients that handle both alike.
  app.post(
    '/auth/refresh',
    { schema: { body: RefreshBody, response: refreshResponse } },
    async (request, reply) => {
      await enforceAddressLimit(options.limiter, 'refresh', request.ip, reply);
      await enforceAuthLimit(
        options.limiter,
        'refresh',
        refreshTokenSubject(request.body.refreshToken),
        reply,
      );
      const session = await unaryCall(identity, 'Refresh', { refreshToken: request.body.refreshToken });
      return ok({ accessToken: session.accessToken, refreshToken: session.refreshToken });
    },
  );

  // 204 like /auth/v2/logout; the session's access tokens are refused from this answer on.
  // Authenticated by the route table (a signed-in user's token).
  app.post('/auth/logout', async (request, reply) => {
    await unaryCall(identity, 'Logout', {}, { authorization: callerOf(request).authorization });
    return reply.status(204).send();
  });
}
