import type { AttemptsRepository, DeliveriesRepository, OwnerNoticesRepository } from './ports.js';

/** How long finished deliveries and the attempt log are kept: as long as the events feed. */
export const DEFAULT_DELIVERY_LOG_RETENTION_MS = 30 * 24 * 3_600_000;

/**
 * Drops finished deliveries (DELIVERED, FAILED) and attempts older than the retention, and
 * mailed owner notices with them; the clean-up job runs it. A PENDING delivery is never dropped
 * (its retries end within about a day), and a pruned delivery can no longer be replayed.
 */
export async function pruneDeliveryLog(
  deps: {
    readonly deliveries: DeliveriesRepository;
    readonly attempts: AttemptsRepository;
    readonly notices: OwnerNoticesRepository;
    readonly now: () => Date;
  },
  retentionMs: number,
): Promise<{ deliveries: number; attempts: number; notices: number }> {
  const cutoff = new Date(deps.now().getTime() - retentionMs);
  return {
    deliveries: await deps.deliveries.deleteFinishedBefore(cutoff),
    attempts: await deps.attempts.deleteBefore(cutoff),
    notices: await deps.notices.deleteSentBefore(cutoff),
  };
}
