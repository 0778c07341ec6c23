import type { HistoryKey, HistoryMonth, HistoryWrite } from '../../domain/index.js';

/**
 * A tenant's usage history: one document per tenant and UTC month holding that month's days, so
 * a write touches one bounded document and a 13-month read is at most 14 lookups by `_id`.
 */
export interface UsageHistoryRepository {
  /** Writes the points of one counter write (the last write of a day wins; openings only once). */
  record(tenantId: string, writes: readonly HistoryWrite[]): Promise<void>;
  /** Sets the API requests counted on one UTC day (`YYYY-MM-DD`) to `count` (absolute, so a retry is harmless). */
  recordApiRequests(tenantId: string, day: string, count: number): Promise<void>;
  /** The stored months (`YYYY-MM`) of the tenant that hold points of `key`, oldest first. */
  months(tenantId: string, key: HistoryKey, months: readonly string[]): Promise<HistoryMonth[]>;
  /** Drops every tenant's months before `month` (`YYYY-MM`); how many documents went. */
  dropBefore(month: string): Promise<number>;
}
