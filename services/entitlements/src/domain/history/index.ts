/** The usage history: daily points per key, kept 13 months (docs/entitlements-model.md). */
export {
  HISTORY_GRANULARITIES,
  HISTORY_KEYS,
  HISTORY_MONTHS_KEPT,
  historyKindOf,
  isHistoryKey,
  isLimitHistoryKey,
} from './history-keys.js';
export type { HistoryGranularity, HistoryKey, HistoryKind } from './history-keys.js';
export { dayOf, oldestMonthKept, monthsBetween, retentionStart, utcDay } from './history-dates.js';
export { DEFAULT_HISTORY_DAYS, parseHistoryQuery } from './history-query.js';
export type { HistoryQuery, HistoryQueryInput } from './history-query.js';
export { buildHistorySeries } from './history-series.js';
export type { HistoryMonth, HistoryPoint } from './history-series.js';
export { historyWritesAfter } from './history-writes.js';
export type { HistoryWrite } from './history-writes.js';
