import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { DriftPassReport } from '../operations/run-drift-pass.js';

/** A running drift-watch schedule. */
export type DriftWatchJob = PeriodicJob;

/**
 * Runs a drift-watch pass every `intervalMs`; one pass at a time on this replica, and other
 * replicas are kept off its tenants by the claims. A pass that claimed nothing is not logged.
 */
export function startDriftWatchJob(options: {
  intervalMs: number;
  run: () => Promise<DriftPassReport>;
  logger: JobLogger;
}): DriftWatchJob {
  return startPeriodicJob({
    name: 'drift-watch',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) => (report.claimed + report.failed > 0 ? { ...report } : undefined),
  });
}
