import type { DriftPassReport } from './drift-watch.js';

export interface DriftWatchJobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A running drift-watch schedule. */
export interface DriftWatchJob {
  /** Stops scheduling and waits for a pass in progress to finish. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs a drift-watch pass every `intervalMs`, one at a time (the next is scheduled when the last
 * ends, so a slow pass never overlaps itself on this replica; other replicas are kept off its
 * tenants by the claims). A failed pass is logged and the schedule goes on. The timer does not
 * keep the process alive; main.ts stops the job before closing Mongo.
 */
export function startDriftWatchJob(options: {
  intervalMs: number;
  run: () => Promise<DriftPassReport>;
  logger: DriftWatchJobLogger;
}): DriftWatchJob {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(tick, options.intervalMs);
    timer.unref();
  };
  const tick = (): void => {
    running = options
      .run()
      .then(
        (report) => {
          if (report.claimed + report.failed > 0) options.logger.info({ ...report }, 'drift-watch pass done');
        },
        (error: unknown) => options.logger.warn({ err: error }, 'drift-watch pass failed'),
      )
      .finally(() => {
        running = undefined;
        schedule();
      });
  };

  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
