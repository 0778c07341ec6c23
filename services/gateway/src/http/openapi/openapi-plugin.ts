import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openApiOptions } from './document.js';

/** The document's `info.version`: the API's, not a build's. */
export const OPENAPI_VERSION = '1.0.0';

/**
 * Collects every route registered after it (an onRoute hook at the root) into the OpenAPI 3.1
 * document. Register it before any route.
 */
export const openApiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, openApiOptions(OPENAPI_VERSION));
});

/**
 * `GET /openapi.json` in the scope it is registered in (the API's, so `/api/v1/openapi.json`).
 * Built once on first request (@fastify/swagger caches it), public like the spec it mirrors.
 */
export async function openApiRoute(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', async (_request, reply) =>
    reply.header('cache-control', 'public, max-age=300').send(app.swagger()),
  );
}
