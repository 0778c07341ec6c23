import type { FastifyInstance } from 'fastify';
import { toOAuthHttpError } from '../errors/map-error.js';

/**
 * Makes an encapsulated group of routes (the public token endpoints) answer errors with the
 * spec's OAuth-style body, and marks every answer `no-store` (RFC 6749 §5.1: responses that
 * carry tokens must not be cached, and neither should their refusals).
 */
export function useOAuthErrors(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const mapped = toOAuthHttpError(error);
    if (mapped.status >= 500) request.log.error({ err: error }, 'token endpoint failed');
    else
      request.log.info(
        {
          status: mapped.status,
          code: (error as { reason?: string; code?: string }).reason ?? (error as { code?: string }).code,
        },
        'token request refused',
      );
    for (const [name, value] of Object.entries(mapped.headers ?? {})) void reply.header(name, value);
    return reply.status(mapped.status).send(mapped.body);
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('pragma', 'no-cache');
    return payload;
  });
}
