import { unaryCall } from '@tap/grpc-kit';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ApiRequestCountReader, ApiRequestCounts } from '../../api-request-counts.js';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import { upgradeContextFromWire as upgradeContextJson } from '@tap/contracts';
import { canDecisionJson, usageReportJson } from './entitlements-json.js';
import {
  CanBody,
  canResponse,
  UpgradeContextQuery,
  upgradeContextResponse,
  usageResponse,
} from './entitlements-schemas.js';
import { anyToken } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import type { AnswerCache } from '../answer-cache.js';
import { serialisedBody } from '../serialised-body.js';
import { sendTenantAnswer } from '../tenant-answer.js';
import { operation, registerRoutes, routesOf } from './define-route.js';

export interface EntitlementRoutesOptions {
  readonly clients: ServiceClients;
  /** The limiter's read of the tenant's API request counts; absent until the limiter is wired. */
  readonly apiRequestCounts?: ApiRequestCountReader | undefined;
  /**
   * The tenant's answers, kept while fresh (http/answer-cache.ts); the usage report's by the API
   * request counts it was asked with as well.
   */
  readonly answers: AnswerCache;
}

const route = routesOf<EntitlementRoutesOptions>();
/** Entitlements' reads change nothing: any token of the tenant may ask them. */
const ask = anyToken;

/**
 * The entitlement endpoints (spec: "Entitlement endpoints"): usage report, `can` and upgrade
 * context. The tenant is the verified token's; entitlements answers and the error edge maps
 * its codes (UNKNOWN_ACTION, UNKNOWN_CAPABILITY, INVALID_RESOURCE_COUNT → 400). Each keeps the
 * tenant's answers while fresh (http/answer-cache.ts).
 */
export const ENTITLEMENT_ROUTES = [
  route('GET /entitlements/usage', {
    schema: { response: usageResponse },
    access: ask('quota of the tenant; integrations check it before bulk work'),
    operation: operation('entitlements', 'getUsage', 'The usage report'),
    handler: ({ clients, apiRequestCounts, answers }) => {
      return async (request, reply) => {
        const { claims, authorization } = callerOf(request);
        const counts = await readCounts(apiRequestCounts, claims.tenantId, authorization, request.log);
        const wire = counts ? { apiRequestsDay: counts.day, apiRequestsMinute: counts.minute } : {};
        // Keyed by the counts too (a metered tenant's next request moves them) and by the UTC minute
        // (the window resets and the month in the answer move with it: docs/entitlements-model.md).
        const key = `usage\u0000${utcMinute()}\u0000${counts ? `${counts.day}\u0000${counts.minute}` : ''}`;
        return sendTenantAnswer(reply, answers, claims.tenantId, key, async () => {
          const report = await unaryCall(clients.entitlements, 'GetUsage', wire, { authorization });
          return serialisedBody(reply, ok(usageReportJson(report)));
        });
      };
    },
  }),
  // A refusal is an answer: 200 with `success: true` and `allowed: false` (spec).
  route('POST /entitlements/can', {
    schema: { body: CanBody, response: canResponse },
    access: ask('a question, changes nothing; integrations ask it before imports'),
    operation: operation('entitlements', 'can', 'May the tenant do this? (200 even when not)'),
    handler: ({ clients, answers }) => {
      return async (request, reply) => {
        const { action, resourceCount } = request.body;
        const { claims, authorization } = callerOf(request);
        const key = `can\u0000${utcMinute()}\u0000${action}\u0000${resourceCount}`;
        return sendTenantAnswer(reply, answers, claims.tenantId, key, async () => {
          const decision = await unaryCall(
            clients.entitlements,
            'Can',
            { action, resourceCount },
            { authorization },
          );
          return serialisedBody(reply, ok(canDecisionJson(decision)));
        });
      };
    },
  }),
  route('GET /entitlements/upgrade-context', {
    schema: { querystring: UpgradeContextQuery, response: upgradeContextResponse },
    access: ask('what a higher tier would add; changes nothing'),
    operation: operation(
      'entitlements',
      'getUpgradeContext',
      'What an upgrade would unlock for a capability',
    ),
    handler: ({ clients, answers }) => {
      return async (request, reply) => {
        const { capability } = request.query;
        const { claims, authorization } = callerOf(request);
        const key = `upgrade-context\u0000${capability}`;
        return sendTenantAnswer(reply, answers, claims.tenantId, key, async () => {
          const context = await unaryCall(
            clients.entitlements,
            'GetUpgradeContext',
            { capability },
            { authorization },
          );
          return serialisedBody(reply, ok(upgradeContextJson(context)));
        });
      };
    },
  }),
] as const;

/** Registers ENTITLEMENT_ROUTES: JSON bodies only. */
export async function entitlementRoutes(
  app: FastifyInstance,
  options: EntitlementRoutesOptions,
): Promise<void> {
  // JSON only: without this, Fastify's text/plain parser would hand the schema a string.
  app.removeContentTypeParser('text/plain');
  registerRoutes(app, ENTITLEMENT_ROUTES, options);
}

/** The minute an answer of the usage report or `can` belongs to (entitlements' `answerMinute`). */
function utcMinute(): number {
  return Math.floor(Date.now() / 60_000);
}

// The report is still worth answering without the counts (they read as 0), so a limiter
// failure is logged, not passed on as an error.
async function readCounts(
  reader: ApiRequestCountReader | undefined,
  tenantId: string,
  authorization: string,
  log: FastifyBaseLogger,
): Promise<ApiRequestCounts | undefined> {
  if (!reader) return undefined;
  try {
    return await reader(tenantId, authorization);
  } catch (error) {
    log.warn({ err: error }, 'API request counts unavailable; reporting without them');
    return undefined;
  }
}
