import type { Readiness } from '@tap/runtime';
import type { FastifyInstance } from 'fastify';

/** `/healthz` (alive) and `/readyz` (the services and Redis answer), outside the API prefix. */
export async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }): Promise<void> {
  app.get('/healthz', { config: { otel: false } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { otel: false } }, async (_request, reply) => {
    const report = await options.readiness.report();
    return reply
      .status(report.ready ? 200 : 503)
      .send({ status: report.ready ? 'ready' : 'not ready', ...report });
  });
}
