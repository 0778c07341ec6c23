import type { UsageWarningLevel } from '@tap/contracts';
import { formatCount, LIMIT_COPY } from '../catalogue/copy.js';
import type { LimitKey, RateLimitKey } from '../catalogue/keys.js';

/** From this share of a limit on, the report warns that the limit is near. */
export const APPROACHING_PERCENT = 80;

/** How close a count is to its limit: near it, or at or past it (public: @tap/contracts). */
export type WarningLevel = UsageWarningLevel;

/** One item of the usage report's `warnings` (the spec leaves the shape to us). */
export interface UsageWarning {
  /** The limit or rate-limit key, as in `can` details. */
  readonly limit: LimitKey | RateLimitKey;
  readonly level: WarningLevel;
  readonly current: number;
  /** The ceiling the warning is about. */
  readonly max: number;
  /** floor(current / max × 100); above 100 when a downgrade left the tenant over the limit. */
  readonly percentUsed: number;
  readonly message: string;
}

/** A count to judge: `max` null means unlimited. */
export interface WarningInput {
  readonly limit: LimitKey | RateLimitKey;
  readonly current: number;
  readonly max: number | null;
}

/**
 * The warning for one count, or null. Unlimited keys never warn; nor do ceilings of 0,
 * which mean "not in this tier" and are the upgrade prompt's business, not an alarm.
 */
export function warningFor({ limit, current, max }: WarningInput): UsageWarning | null {
  if (max === null || max === 0) return null;
  const percentUsed = Math.floor((current * 100) / max);
  if (current >= max) {
    return {
      limit,
      level: 'REACHED',
      current,
      max,
      percentUsed,
      message: reachedMessage(limit, current, max),
    };
  }
  if (percentUsed < APPROACHING_PERCENT) return null;
  const message = `You have used ${percentUsed}% of your limit of ${formatCount(max)} ${LIMIT_COPY[limit].noun}.`;
  return { limit, level: 'APPROACHING', current, max, percentUsed, message };
}

/** Warnings for every input that earns one: REACHED first, then in input order. */
export function buildWarnings(inputs: readonly WarningInput[]): UsageWarning[] {
  const warnings = inputs.map(warningFor).filter((w): w is UsageWarning => w !== null);
  return [...warnings.filter((w) => w.level === 'REACHED'), ...warnings.filter((w) => w.level !== 'REACHED')];
}

function reachedMessage(limit: LimitKey | RateLimitKey, current: number, max: number): string {
  const ceiling = `${formatCount(max)} ${LIMIT_COPY[limit].noun}`;
  if (current === max) return `You have reached your limit of ${ceiling}.`;
  return `You are over your limit of ${ceiling} (${formatCount(current)} counted).`;
}
