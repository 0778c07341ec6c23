import { eventErrors } from '@tap/events';
import { startPeriodicJob, type JobLogger, type PeriodicJob } from '@tap/runtime';
import { runOutboxPass, type OutboxPassReport, type OutboxRelayDeps } from '../operations/relay-outbox.js';

/** A running outbox relay schedule. */
export type OutboxRelayJob = PeriodicJob;

/** The outbox relay as app.ts wires it: a pass on demand, or on a schedule. */
export interface OutboxRelay {
  run(): Promise<OutboxPassReport>;
  start(): OutboxRelayJob;
}

/**
 * Runs an outbox relay pass every `intervalMs`; one pass at a time on this replica, and other
 * replicas are kept off its completions by the claims. A pass that found nothing due is not
 * logged. An event the stream refuses as invalid is never retried.
 */
export function outboxRelay(
  deps: Omit<OutboxRelayDeps, 'isRefused' | 'logger'> & {
    readonly intervalMs: number;
    readonly logger: JobLogger & OutboxRelayDeps['logger'];
  },
): OutboxRelay {
  const run = () => runOutboxPass({ ...deps, isRefused: (error) => eventErrors.is(error, 'EVENT_INVALID') });
  return {
    run,
    start: () =>
      startPeriodicJob({
        name: 'outbox-relay',
        intervalMs: deps.intervalMs,
        run,
        logger: deps.logger,
        describe: (report) => (report.due > 0 ? { ...report } : undefined),
      }),
  };
}
