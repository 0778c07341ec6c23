import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, with an empty one read as "no body". Clients and HTTP libraries send
 * `Content-Type: application/json` on every POST, also on the ones that take no body
 * (`/auth/logout`, `/auth/v2/refresh`, `/auth/v2/logout`, secret rotation, milestone
 * completion); Fastify's own parser refuses that with 400. A route that needs a body still
 * refuses its absence through its schema. Prototype and constructor poisoning stay errors.
 */
export function acceptEmptyJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
