import type { AuditEntry__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { managers } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { wireJson } from '../wire-json.js';
import { operation, registerRoutes, routesOf } from './define-route.js';
import { AuditQuery, auditResponse, type AuditEntryJson } from './notifications-schemas.js';

/** An export reads up to 10,000 entries in pages of 100: more than one page's deadline. */
const EXPORT_DEADLINE_MS = 10_000;

const orNull = (value: string | undefined): string | null => value || null;

const entryJson = (e: AuditEntry__Output): AuditEntryJson => ({
  ...wireJson(e, [], ['reason', 'ip', 'userAgent', 'requestId']),
  actor: { type: e.actor?.type ?? 'system', id: orNull(e.actor?.id), email: orNull(e.actor?.email) },
  target: e.target?.type ? { type: e.target.type, id: orNull(e.target.id) } : null,
  change: e.change?.to ? { from: orNull(e.change.from), to: e.change.to } : null,
});

const route = routesOf<{ clients: ServiceClients }>();

/**
 * `GET /tenant/audit-events`: the tenant's audit log, newest first, filtered by action, actor and
 * time range (at most 400 days: 400 AUDIT_RANGE_TOO_LONG), paged with a cursor; or, with
 * `format=csv` or `Accept: text/csv`, the range as CSV made by the notifications service (cells a
 * spreadsheet would run as a formula are neutralised there). OWNER and ADMIN only: the route
 * table, and the service again. No route changes an entry.
 */
export const AUDIT_EVENT_ROUTES = [
  route('GET /tenant/audit-events', {
    schema: { querystring: AuditQuery, response: auditResponse },
    access: managers('who did what in the company, with addresses (issue 24: OWNER and ADMIN only)'),
    operation: operation(
      'notifications',
      'listAuditEvents',
      'The audit log, newest first, filtered by action, actor and time range (≤ 400 days); CSV with format=csv (OWNER or ADMIN)',
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const { notifications } = clients;
        const { authorization } = callerOf(request);
        const q = request.query;
        const filter = {
          action: q.action ?? '',
          actorId: q.actorId ?? '',
          from: q.from ?? '',
          to: q.to ?? '',
        };
        if (wantsCsv(q.format, request.headers.accept)) {
          const exported = await unaryCall(notifications, 'ExportAuditEntries', filter, {
            authorization,
            deadlineMs: EXPORT_DEADLINE_MS,
          });
          return reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', 'attachment; filename="audit-events.csv"')
            .send(exported.csv);
        }
        const ask = { ...filter, cursor: q.cursor ?? '', limit: Number(q.limit ?? 0) };
        const page = await unaryCall(notifications, 'ListAuditEntries', ask, { authorization });
        return ok({ entries: page.entries.map(entryJson), nextCursor: page.nextCursor || null });
      },
  }),
] as const;

/** Registers AUDIT_EVENT_ROUTES. */
export async function auditEventRoutes(
  app: FastifyInstance,
  deps: { clients: ServiceClients },
): Promise<void> {
  registerRoutes(app, AUDIT_EVENT_ROUTES, deps);
}

function wantsCsv(format: AuditQuery['format'], accept = ''): boolean {
  if (format) return format === 'csv';
  return accept.includes('text/csv') && !accept.includes('application/json');
}
