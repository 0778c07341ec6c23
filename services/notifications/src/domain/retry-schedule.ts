/**
 * The default waits after each failed attempt: exponential, about a day in all (5 s, 1 min,
 * 5 min, 30 min, 2 h, 6 h, 15 h: 23.6 h), then the delivery is given up. Configurable
 * (WEBHOOK_RETRY_SCHEDULE_MS) so that tests compress it.
 */
export const DEFAULT_RETRY_SCHEDULE_MS: readonly number[] = [
  5_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  15 * 3_600_000,
];

/**
 * When attempt `attemptsMade + 1` is due after `attemptsMade` failures, or null once the
 * schedule is spent (the delivery has failed for good).
 */
export function nextAttemptAt(
  failedAt: Date,
  attemptsMade: number,
  scheduleMs: readonly number[],
): Date | null {
  const wait = scheduleMs[attemptsMade - 1];
  return wait === undefined ? null : new Date(failedAt.getTime() + wait);
}

/** An endpoint that has failed without a success since this long is disabled. */
export const DEFAULT_DISABLE_AFTER_FAILING_MS = 3 * 24 * 3_600_000;

/** True when an endpoint failing since `failingSince` has failed long enough to be disabled. */
export function shouldDisable(failingSince: Date | null, now: Date, disableAfterMs: number): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= disableAfterMs;
}
