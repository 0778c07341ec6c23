import type { LimitRule } from '@tap/ratelimit';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * The tier's two windows, checked and charged together in one Redis round trip. Tenant quotas
 * fail open: when Redis cannot answer, integrators keep working (abuse protection is the
 * auth-endpoint limits' job, and those fail closed).
 */
export function apiQuotaRules(quota: { perMinute: number; perDay: number }): LimitRule[] {
  return [
    { name: 'api-per-minute', limit: quota.perMinute, windowMs: MINUTE_MS, onRedisDown: 'open' },
    { name: 'api-per-day', limit: quota.perDay, windowMs: DAY_MS, onRedisDown: 'open' },
  ];
}
