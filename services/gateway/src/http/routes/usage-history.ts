import type { UsageHistory__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRequestCountReader } from '../../api-request-counts.js';
import type { ServiceClients } from '../../clients.js';
import { anyToken } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { operation, registerRoutes, routesOf } from './define-route.js';
import { UsageHistoryQuery, usageHistoryResponse, type UsageHistoryJson } from './usage-history-schemas.js';

export interface UsageHistoryRoutesOptions {
  readonly clients: ServiceClients;
  /** Today's API requests, as the usage report reads them (so the two agree). */
  readonly apiRequestCounts?: ApiRequestCountReader | undefined;
}

const route = routesOf<UsageHistoryRoutesOptions>();

/**
 * `GET /entitlements/usage/history`: a key's daily or monthly points over the 13 months kept, in
 * the envelope, or as CSV with `format=csv` or `Accept: text/csv` (the parameter wins). Any token
 * of the tenant may read it, like the usage report; the tenant is the verified token's.
 */
export const USAGE_HISTORY_ROUTES = [
  route('GET /entitlements/usage/history', {
    schema: { querystring: UsageHistoryQuery, response: usageHistoryResponse },
    access: anyToken('past points of the usage report; changes nothing'),
    operation: operation(
      'entitlements',
      'getUsageHistory',
      'Daily or monthly points of a limit or of API requests, 13 months kept (JSON or CSV)',
    ),
    handler:
      ({ clients, apiRequestCounts }) =>
      async (request, reply) => {
        const { key, from, to, granularity } = request.query;
        const { claims, authorization } = callerOf(request);
        const counts = await todaysCount(apiRequestCounts, claims.tenantId, authorization, request);
        const ask = {
          key,
          from,
          to,
          granularity,
          ...(counts === undefined ? {} : { apiRequestsDay: counts }),
        };
        const history = historyJson(
          await unaryCall(clients.entitlements, 'GetUsageHistory', ask, { authorization }),
        );
        if (!wantsCsv(request.query.format, request.headers.accept)) return ok(history);
        const name = `usage-history-${history.key}-${history.from}-${history.to}.csv`;
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(historyCsv(history));
      },
  }),
] as const;

/** Registers USAGE_HISTORY_ROUTES. */
export async function usageHistoryRoutes(
  app: FastifyInstance,
  options: UsageHistoryRoutesOptions,
): Promise<void> {
  registerRoutes(app, USAGE_HISTORY_ROUTES, options);
}

function historyJson(wire: UsageHistory__Output): UsageHistoryJson {
  return {
    key: wire.key,
    granularity: wire.granularity,
    from: wire.from,
    to: wire.to,
    limit: wire.unlimited ? null : (wire.limit ?? null),
    unlimited: wire.unlimited,
    points: wire.points.map((p) => ({ date: p.date, value: p.value })),
  };
}

/** One row per point; every field is a known key, a date or a number, so nothing needs quoting. */
export function historyCsv(history: UsageHistoryJson): string {
  const limit = history.limit === null ? '' : String(history.limit);
  const rows = history.points.map((p) => `${history.key},${p.date},${p.value},${limit}`);
  return ['key,date,value,limit', ...rows].join('\r\n') + '\r\n';
}

function wantsCsv(format: UsageHistoryQuery['format'], accept = ''): boolean {
  if (format) return format === 'csv';
  return accept.includes('text/csv') && !accept.includes('application/json');
}

// The history is still worth answering without today's API count (it reads as 0).
async function todaysCount(
  reader: ApiRequestCountReader | undefined,
  tenantId: string,
  authorization: string,
  request: FastifyRequest,
): Promise<number | undefined> {
  if (!reader) return undefined;
  try {
    return (await reader(tenantId, authorization))?.day;
  } catch (error) {
    request.log.warn({ err: error }, 'API request counts unavailable; history without them');
    return undefined;
  }
}
