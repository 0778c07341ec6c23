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

export { OPENAPI_ROUTES, openApiRoute } from './openapi-route.js';
