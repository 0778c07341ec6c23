import type { UsageHistory as WireUsageHistory } from '@tap/contracts';
import type { UsageHistory } from '../operations/get-usage-history.js';

/** A usage history; `limit` is unset exactly when the key is unlimited. */
export function usageHistoryToWire(history: UsageHistory): WireUsageHistory {
  const { limit, points, ...rest } = history;
  return { ...rest, ...(limit === null ? {} : { limit }), points: points.map((p) => ({ ...p })) };
}
