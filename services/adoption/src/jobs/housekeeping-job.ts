import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { HousekeepingReport } from '../operations/housekeep.js';

/** A running housekeeping schedule. */
export type HousekeepingJob = PeriodicJob;

/** Runs a housekeeping pass every `intervalMs`; a pass that deleted nothing is not logged. */
export function startHousekeepingJob(options: {
  intervalMs: number;
  run: () => Promise<HousekeepingReport>;
  logger: JobLogger;
}): HousekeepingJob {
  return startPeriodicJob({
    name: 'housekeeping',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) =>
      report.rawEventsPruned + report.orphanPartsDeleted > 0 ? { ...report } : undefined,
  });
}
