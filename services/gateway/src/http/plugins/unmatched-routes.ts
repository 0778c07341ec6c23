import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { gatewayError } from '../errors/catalogue.js';
import type { HttpError } from '../errors/http-error.js';
import { sendHttpError } from '../errors/send-http-error.js';

const pathOf = (request: FastifyRequest): string => request.url.split('?')[0] ?? '';

/** 404 ROUTE_NOT_FOUND, naming what was asked (the not-found handler's answer too). */
export function routeNotFound(request: FastifyRequest): HttpError {
  return gatewayError('ROUTE_NOT_FOUND', { message: `No route ${request.method} ${pathOf(request)}` });
}

/**
 * The methods the router serves at `request`'s path, asked of the router itself: every route,
 * whenever and wherever it registered (HEAD included where Fastify serves it for a GET), counts
 * without a list of our own to keep in step. A path some route names literally is that route's
 * resource: a parametric route whose parameter happens to spell it (DELETE /auth/sessions/:id
 * at /auth/sessions/revoke-others) adds no method to its `Allow`, as the document has it.
 */
function servedMethods(app: FastifyInstance, request: FastifyRequest): string[] {
  const url = pathOf(request);
  const matches = app.supportedMethods
    .map((method) => ({ method, route: app.findRoute({ method, url }) }))
    .filter((match) => match.route !== null);
  const literal = matches.filter((match) => Object.keys(match.route?.params ?? {}).length === 0);
  return (literal.length > 0 ? literal : matches).map((match) => match.method).sort();
}

/**
 * A request the router did not match: a known path asked with a method it does not serve answers
 * 405 METHOD_NOT_ALLOWED with `Allow` (RFC 9110 §15.5.6), an unknown path 404 ROUTE_NOT_FOUND
 * (docs/api.md).
 *
 * In `onRequest`, before body parsing: Fastify parses the body of a method that may carry one
 * (POST, QUERY…) even on its way to the not-found handler, so a later answer would be 400
 * INVALID_JSON or a missing content type, not the 405 or 404 the caller needs. Only requests
 * the router did not match pay for the look-up.
 */
export const unmatchedRoutesPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.is404) return;
    const allowed = servedMethods(app, request);
    if (allowed.length === 0) return sendHttpError(reply, routeNotFound(request));
    const allow = allowed.join(', ');
    return sendHttpError(
      reply,
      gatewayError('METHOD_NOT_ALLOWED', {
        message: `${request.method} is not served here; use ${allow}`,
        headers: { allow },
      }),
    );
  });
});
