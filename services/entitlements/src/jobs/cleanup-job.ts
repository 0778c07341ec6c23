import type { CleanupReport } from '../operations/cleanup.js';

export interface CleanupJobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A running clean-up schedule. */
export interface CleanupJob {
  /** Stops scheduling and waits for a pass in progress to finish. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs a clean-up pass every `intervalMs`, one at a time (the next is scheduled when the last
 * ends, so a slow pass never overlaps itself). A failed pass is logged and the schedule goes on.
 * The timer does not keep the process alive; main.ts stops the job before closing Mongo.
 */
export function startCleanupJob(options: {
  intervalMs: number;
  run: () => Promise<CleanupReport>;
  logger: CleanupJobLogger;
}): CleanupJob {
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
          const { expired, removedReservations, prunedEvents, prunedPeriods, failed } = report;
          if (expired + removedReservations + prunedEvents + prunedPeriods + failed > 0) {
            options.logger.info({ ...report }, 'usage clean-up pass done');
          }
        },
        (error: unknown) => options.logger.warn({ err: error }, 'usage clean-up pass failed'),
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
