import { observeHttpRequest } from '@tap/telemetry';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The HTTP series: every answered request is counted and timed by its route pattern
 * (`/api/v1/entitlements/usage`, never the raw URL with ids or query; `unmatched` for unknown
 * routes), method and status class. Prometheus reads them on the gateway's metrics port, not
 * here: the API port faces the Internet (main.ts).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      observeHttpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1_000);
    });
  },
  { name: 'metrics' },
);
