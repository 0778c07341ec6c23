import { observeHttpRequest, renderMetrics } from '@tap/telemetry';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Where Prometheus scrapes the gateway: outside /api/v1, so no quota, no auth and no span. */
export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` and the HTTP series: every answered request is counted and timed by its route
 * pattern (`/api/v1/entitlements/usage`, never the raw URL with ids or query; `unmatched` for
 * unknown routes), method and status class. Scrapes of `/metrics` itself are not counted.
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      if (route === METRICS_PATH) return;
      observeHttpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1_000);
    });
    app.get(METRICS_PATH, { config: { otel: false } }, async (_request, reply) => {
      const answer = await renderMetrics();
      return reply
        .status(answer.status)
        .header('cache-control', 'no-store')
        .type(answer.contentType)
        .send(answer.body);
    });
  },
  { name: 'metrics' },
);
