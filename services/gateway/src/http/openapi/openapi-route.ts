import type { FastifyInstance } from 'fastify';
import { open } from '../auth/access.js';
import { registerRoutes, routesOf } from '../routes/define-route.js';

const route = routesOf<FastifyInstance>();

/**
 * `GET /openapi.json` in the scope it is registered in (the API's, so `/api/v1/openapi.json`).
 * Built once on first request (@fastify/swagger caches it), public like the spec it mirrors.
 */
export const OPENAPI_ROUTES = [
  route('GET /openapi.json', {
    access: open('the published interface, nothing about any tenant'),
    operation: {
      operationId: 'getOpenApiDocument',
      tag: 'meta',
      summary: 'This OpenAPI 3.1 document',
      extraResponses: {
        200: {
          description: 'The document',
          type: 'object',
          required: ['openapi', 'info', 'paths'],
          properties: { openapi: { const: '3.1.0' } },
        },
      },
    },
    handler: (app) => async (_request, reply) =>
      reply.header('cache-control', 'public, max-age=300').send(app.swagger()),
  }),
] as const;

/** Registers OPENAPI_ROUTES. */
export async function openApiRoute(app: FastifyInstance): Promise<void> {
  registerRoutes(app, OPENAPI_ROUTES, app);
}
