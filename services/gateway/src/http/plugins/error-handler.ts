import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { generalError } from '../errors/http-error.js';
import { toHttpError } from '../errors/map-error.js';

/**
 * The gateway's single error edge: everything thrown by a route, a hook, body parsing or a
 * downstream service becomes the spec's status and body here. Messages below 500 are the
 * callee's user-facing text; 500s say nothing about the cause (it goes to the log).
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance) => {
  app.setErrorHandler(async (error, request, reply) => {
    const mapped = toHttpError(error);
    if (mapped.status === 503)
      request.log.warn({ err: (error as Error).message }, 'a dependency is unavailable');
    else if (mapped.status >= 500) request.log.error({ err: error }, 'request failed');
    else
      request.log.info({ status: mapped.status, code: (error as { code?: string }).code }, 'request refused');
    for (const [name, value] of Object.entries(mapped.headers ?? {})) void reply.header(name, value);
    return reply.status(mapped.status).send(mapped.body);
  });
  app.setNotFoundHandler(async (request, reply) => {
    const mapped = generalError(
      404,
      'ROUTE_NOT_FOUND',
      `No route ${request.method} ${request.url.split('?')[0]}`,
    );
    return reply.status(404).send(mapped.body);
  });
});
