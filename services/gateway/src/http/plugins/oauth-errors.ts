import type { FastifyInstance } from 'fastify';
import { useErrorStyle } from './error-handler.js';

/**
 * Makes an encapsulated group of routes (the public token endpoints) answer errors with the
 * spec's OAuth-style body, and marks every answer `no-store` (RFC 6749 §5.1: responses that
 * carry tokens must not be cached, and neither should their refusals).
 */
export function useOAuthErrors(app: FastifyInstance): void {
  useErrorStyle(app, 'oauth');
  app.addHook('onSend', async (_request, reply, payload) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('pragma', 'no-cache');
    return payload;
  });
}
