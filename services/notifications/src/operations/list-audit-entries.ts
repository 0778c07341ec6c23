import { auditCsv, checkAuditRange, decodeCursor, encodeCursor, type AuditEntry } from '../domain/index.js';
import type { AuditRepository } from './ports.js';

/** Most entries in one page; a CSV export reads pages of this size up to MAX_AUDIT_EXPORT_ROWS. */
export const MAX_AUDIT_PAGE = 100;
export const MAX_AUDIT_EXPORT_ROWS = 10_000;

export interface AuditQuery {
  readonly tenantId: string;
  readonly action?: string;
  readonly actorId?: string;
  readonly from?: Date;
  readonly to?: Date;
  readonly cursor?: string;
  readonly limit?: number;
}

export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  /** The next (older) page, or null at the end. */
  readonly nextCursor: string | null;
}

/** A page of the tenant's audit log, newest first, filtered by action, actor and range (≤ 400 days). */
export async function listAuditEntries(
  deps: { readonly audit: AuditRepository; readonly now: () => Date },
  query: AuditQuery,
): Promise<AuditPage> {
  const range = checkAuditRange(query.from, query.to, deps.now());
  const position = query.cursor ? decodeCursor(query.cursor) : null;
  const limit = Math.min(Math.max(query.limit ?? MAX_AUDIT_PAGE, 1), MAX_AUDIT_PAGE);
  const filter = {
    ...range,
    ...(query.action ? { action: query.action } : {}),
    ...(query.actorId ? { actorId: query.actorId } : {}),
  };
  const rows = await deps.audit.page(query.tenantId, filter, position, limit + 1);
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    entries: shown.map((r) => r.entry),
    nextCursor: rows.length > limit && last ? encodeCursor(last.position) : null,
  };
}

/** The same query as CSV, every page up to MAX_AUDIT_EXPORT_ROWS rows. */
export async function exportAuditCsv(
  deps: { readonly audit: AuditRepository; readonly now: () => Date },
  query: Omit<AuditQuery, 'cursor' | 'limit'>,
): Promise<string> {
  const entries: AuditEntry[] = [];
  let cursor: string | undefined;
  do {
    const page = await listAuditEntries(deps, { ...query, ...(cursor ? { cursor } : {}) });
    entries.push(...page.entries);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && entries.length < MAX_AUDIT_EXPORT_ROWS);
  return auditCsv(entries.slice(0, MAX_AUDIT_EXPORT_ROWS));
}

/** Drops entries older than the retention (the clean-up job). */
export async function pruneAudit(
  deps: { readonly audit: AuditRepository; readonly now: () => Date },
  retentionMs: number,
): Promise<number> {
  return deps.audit.deleteOccurredBefore(new Date(deps.now().getTime() - retentionMs));
}
