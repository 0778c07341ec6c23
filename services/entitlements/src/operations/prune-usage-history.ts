import { oldestMonthKept } from '../domain/index.js';
import type { UsageHistoryRepository } from './ports/usage-history-repository.js';

/** The clean-up of the usage history: every tenant's months older than the 13 kept go. */
export function pruneUsageHistory(history: UsageHistoryRepository, now: Date): Promise<number> {
  return history.dropBefore(oldestMonthKept(now));
}
