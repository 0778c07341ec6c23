import type { RateLimiter } from '@tap/ratelimit';
import { rateLimitHeaders } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { apiQuotaRules } from '../../quota/api-quota-rules.js';
import type { QuotaSource } from '../../quota/tier-quota-source.js';
import type { ApiRequestTally } from '../../quota/api-request-tally.js';
import { callerIfAuthenticated } from '../auth/caller.js';
import { consumeLimit } from '../auth/limit-decisions.js';
import { gatewayError, rateLimitExceeded } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';

/**
 * API request quotas per tier. What counts as an "API request" (docs/rate-limiting.md): every
 * request under /api/v1 authenticated with an OAuth client-credentials token, i.e. integrator
 * traffic, counted per tenant. First-party user sessions are not metered here. A tier without
 * API access answers 403 API_ACCESS_NOT_IN_TIER with the upgrade context, not a bare 403.
 */
export const apiQuotaPlugin = fp(
  async (
    app: FastifyInstance,
    options: {
      limiter: RateLimiter;
      quotas: QuotaSource;
      upgradeContext: (authorization: string) => Promise<unknown>;
      /** Counts each admitted request for the usage history (quota/api-request-tally.ts). */
      tally?: ApiRequestTally | undefined;
    },
  ) => {
    app.addHook('preHandler', async (request, reply) => {
      const auth = callerIfAuthenticated(request);
      if (!auth || auth.claims.kind !== 'client') return undefined;
      const quota = await options.quotas.quota(auth.claims.tenantId, auth.authorization);
      if (quota.perDay <= 0 || quota.perMinute <= 0) {
        const upgradeContext = await options.upgradeContext(auth.authorization);
        return sendHttpError(reply, gatewayError('API_ACCESS_NOT_IN_TIER', { details: { upgradeContext } }));
      }
      const decision = await consumeLimit(
        request,
        options.limiter,
        `tenant:${auth.claims.tenantId}`,
        apiQuotaRules(quota),
      );
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) void reply.header(name, value);
      if (decision.allowed) {
        options.tally?.count(auth.claims.tenantId, new Date());
        return undefined;
      }
      const message = `Too many API requests for your plan (${decision.policy}); retry in ${decision.retryAfter} s`;
      return sendHttpError(reply, rateLimitExceeded(message, decision.retryAfter));
    });
  },
  { name: 'api-quota' },
);
