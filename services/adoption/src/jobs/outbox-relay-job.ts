import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import type { OutboxPassReport } from '../operations/relay-outbox.js';

/** A running outbox relay schedule. */
export type OutboxRelayJob = PeriodicJob;

/**
 * Runs an outbox relay pass every `intervalMs`; one pass at a time on this replica, and other
 * replicas are kept off its completions by the claims. A pass that found nothing due is not logged.
 */
export function startOutboxRelayJob(options: {
  intervalMs: number;
  run: () => Promise<OutboxPassReport>;
  logger: JobLogger;
}): OutboxRelayJob {
  return startPeriodicJob({
    name: 'outbox-relay',
    intervalMs: options.intervalMs,
    run: options.run,
    logger: options.logger,
    describe: (report) => (report.due > 0 ? { ...report } : undefined),
  });
}
