import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { CleanupReport } from '../operations/cleanup.js';

/** A running clean-up schedule. */
export type CleanupJob = PeriodicJob;

/**
 * Runs a usage clean-up pass every `intervalMs` (expire holds, forget old reservations, applied
 * event ids and periods); a pass that changed nothing is not logged.
 */
export function startCleanupJob(options: {
  intervalMs: number;
  run: () => Promise<CleanupReport>;
  logger: JobLogger;
}): CleanupJob {
  return startPeriodicJob({
    name: 'usage-cleanup',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) => {
      const { expired, removedReservations, prunedEvents, prunedPeriods, failed } = report;
      return expired + removedReservations + prunedEvents + prunedPeriods + failed > 0
        ? { ...report }
        : undefined;
    },
  });
}
