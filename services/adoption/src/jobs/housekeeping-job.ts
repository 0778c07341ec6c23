import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import { housekeep, type HousekeepingDeps, type HousekeepingReport } from '../operations/housekeep.js';

/** A running housekeeping schedule. */
export type HousekeepingJob = PeriodicJob;

/** Housekeeping as app.ts wires it: a pass on demand, or on a schedule. */
export interface Housekeeping {
  run(): Promise<HousekeepingReport>;
  start(): HousekeepingJob;
}

/**
 * Raw-event retention (FerretDB v1 keeps no TTL promise) and unnamed summary parts every
 * `intervalMs` (hourly: on FerretDB both filters scan their collection, so not on the drift
 * watch's minute); a pass that deleted nothing is not logged.
 */
export function housekeeping(
  deps: HousekeepingDeps & { readonly intervalMs: number; readonly logger: JobLogger },
): Housekeeping {
  const run = () => housekeep(deps);
  return {
    run,
    start: () =>
      startPeriodicJob({
        name: 'housekeeping',
        intervalMs: deps.intervalMs,
        run,
        logger: deps.logger,
        describe: (report) =>
          report.rawEventsPruned + report.orphanPartsDeleted > 0 ? { ...report } : undefined,
      }),
  };
}
