import { countLimiterDecision, limiterOutcome, observeHttpRequest } from '@tap/telemetry';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { limitDecisionsOf } from '../auth/limit-decisions.js';

/**
 * The HTTP series: every answered request is counted and timed by its route pattern
 * (`/api/v1/entitlements/usage`, never the raw URL with ids or query; `unmatched` for unknown
 * routes), method and status class; and the rate-limit decisions taken while answering it. Prometheus reads them on the gateway's metrics port, not
 * here: the API port faces the Internet (main.ts).
 */
export const metricsPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      observeHttpRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1_000);
      // Every limit the request was charged (auth limits, login throttle, API quotas), by the
      // binding rule's name and outcome (http/auth/limit-decisions.ts keeps them).
      for (const decision of limitDecisionsOf(request))
        countLimiterDecision(decision.policy, limiterOutcome(decision));
    });
  },
  { name: 'metrics' },
);
