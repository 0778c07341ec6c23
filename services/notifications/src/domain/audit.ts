import type { AuditEntryData } from '@tap/contracts';
import { notificationErrors } from './errors.js';

/** How long audit entries are kept, and the longest range one query may span. */
export const AUDIT_RETENTION_DAYS = 400;
export const MAX_AUDIT_RANGE_MS = AUDIT_RETENTION_DAYS * 24 * 3_600_000;

/** One entry of the tenant audit log (append-only). */
export interface AuditEntry extends AuditEntryData {
  /** The audit event's id. */
  readonly id: string;
  readonly tenantId: string;
  readonly occurredAt: Date;
}

/** A query's time range: both ends optional, `from` before `to`, spanning at most 400 days. */
export function checkAuditRange(
  from: Date | undefined,
  to: Date | undefined,
  now: Date,
): { from: Date; to: Date } {
  const end = to ?? now;
  const start = from ?? new Date(end.getTime() - MAX_AUDIT_RANGE_MS);
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end)
    throw notificationErrors.create('AUDIT_RANGE_INVALID');
  if (end.getTime() - start.getTime() > MAX_AUDIT_RANGE_MS)
    throw notificationErrors.create('AUDIT_RANGE_TOO_LONG');
  return { from: start, to: end };
}

export const AUDIT_CSV_COLUMNS = [
  'occurredAt',
  'id',
  'actorType',
  'actorId',
  'actorEmail',
  'action',
  'targetType',
  'targetId',
  'outcome',
  'reason',
  'ip',
  'userAgent',
  'requestId',
  'changeFrom',
  'changeTo',
] as const;

/** RFC 4180 CSV of entries, with the header row; cells a spreadsheet would run as a formula are quoted out. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const rows = entries.map((e) =>
    [
      e.occurredAt.toISOString(),
      e.id,
      e.actor.type,
      e.actor.id,
      e.actor.email,
      e.action,
      e.target?.type,
      e.target?.id,
      e.outcome,
      e.reason,
      e.ip,
      e.userAgent,
      e.requestId,
      e.change?.from,
      e.change?.to,
    ]
      .map(csvCell)
      .join(','),
  );
  return [AUDIT_CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n';
}

function csvCell(value: string | undefined): string {
  if (value === undefined) return '';
  // A user agent or e-mail starting with = + - @ would run as a formula when the file is opened.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
