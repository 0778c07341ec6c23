import { dayOf, mayCrossDailyQuotaThreshold, retentionStart, utcDay } from '../domain/index.js';
import type { ApiRequestDaysSource } from './ports/api-request-days-source.js';
import type { UsageHistoryRepository } from './ports/usage-history-repository.js';

const MS_PER_DAY = 86_400_000;

export interface ApiRequestDaysDeps {
  readonly source: ApiRequestDaysSource;
  readonly history: Pick<UsageHistoryRepository, 'recordApiRequests'>;
  readonly now: () => Date;
  /**
   * Told of each tenant whose count of today moved across a level of some tier's daily quota
   * (domain/announcements/daily-quota-crossing.ts), after it is stored: marks it for the thresholds (docs/entitlements-model.md, "Domain events"). A rejection stops the copy
   * before the count is remembered, so the next copy writes and marks it again.
   */
  readonly todayMoved?: (tenantId: string) => Promise<void>;
}

/** What one copy did. */
export interface ApiRequestDaysReport {
  readonly written: number;
}

/**
 * Copies the gateway's API request counts of yesterday and today (UTC) into the usage history:
 * yesterday once more, for the requests counted before its hash stopped moving. Counts are
 * absolute, so a copy taken twice, or by two replicas, writes the same value. `lastWritten`
 * (day:tenant → count, kept by the caller between runs) skips tenants whose count has not moved.
 */
export async function copyApiRequestDays(
  deps: ApiRequestDaysDeps,
  lastWritten: Map<string, number>,
): Promise<ApiRequestDaysReport> {
  const now = deps.now();
  const today = utcDay(now);
  const days = [utcDay(new Date(now.getTime() - MS_PER_DAY)), today].filter(
    (day) => day >= dayOf(retentionStart(now)),
  );
  for (const key of lastWritten.keys())
    if (!days.some((day) => key.startsWith(`${day}:`))) lastWritten.delete(key);
  let written = 0;
  for (const day of days) {
    for (const [tenantId, count] of await deps.source.counts(day)) {
      const key = `${day}:${tenantId}`;
      if (lastWritten.get(key) === count) continue;
      await deps.history.recordApiRequests(tenantId, day, count);
      if (day === today && mayCrossDailyQuotaThreshold(lastWritten.get(key), count))
        await deps.todayMoved?.(tenantId);
      lastWritten.set(key, count);
      written += 1;
    }
  }
  return { written };
}
