import { publicReadiness, type Readiness } from '@tap/runtime';
import type { FastifyInstance } from 'fastify';

/**
 * `/healthz` (alive) and `/readyz` (the services answer), outside the API prefix. This port faces
 * the Internet: `/readyz` names the checks that fail (`{"status":"not ready","down":["entitlements"]}`)
 * and nothing else; their errors, with internal addresses, go to the log (Readiness.setLogger).
 */
export async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }): Promise<void> {
  app.get('/healthz', { config: { otel: false } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { config: { otel: false } }, async (_request, reply) => {
    const report = await options.readiness.report();
    return reply.status(report.ready ? 200 : 503).send(publicReadiness(report));
  });
}
