import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { ApiRequestDaysReport } from '../operations/copy-api-request-days.js';

/**
 * Copies the gateway's API request counts into the usage history every `intervalMs`; a copy that
 * wrote nothing is not logged.
 */
export function startApiRequestDaysJob(options: {
  intervalMs: number;
  run: () => Promise<ApiRequestDaysReport>;
  logger: JobLogger;
}): PeriodicJob {
  return startPeriodicJob({
    name: 'api-request-days',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) => (report.written > 0 ? { ...report } : undefined),
  });
}
