import type { FastifyInstance } from 'fastify';

export const DEFAULT_HTTP_DRAIN_MS = 3_000;
const IDLE_SWEEP_MS = 100;

/**
 * Stops the HTTP server without dropping a request: no new connections, in-flight requests
 * answered, keep-alive connections closed as soon as they go idle (Node closes idle ones only
 * once, at close time, so a connection that finishes its request later would otherwise hold the
 * process until its keep-alive timeout). After `drainMs`, whatever is left is closed.
 */
export async function closeGracefully(app: FastifyInstance, drainMs = DEFAULT_HTTP_DRAIN_MS): Promise<void> {
  const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const force = setTimeout(() => app.server.closeAllConnections(), drainMs);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
    clearTimeout(force);
  }
}
