/** The slice of a logger a job uses. */
export interface JobLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/** A running schedule. */
export interface PeriodicJob {
  /** Stops scheduling and waits for a pass in progress to finish. Idempotent. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs`, one pass at a time: the next pass is scheduled when the last one
 * ends, so a slow pass never overlaps itself. A failed pass is logged and the schedule goes on;
 * `describe` says what a pass did (return undefined to log nothing, e.g. when it found no work).
 * The timer does not keep the process alive; main.ts stops the job before closing its clients.
 */
export function startPeriodicJob<R>(options: {
  name: string;
  intervalMs: number;
  run: () => Promise<R>;
  logger: JobLogger;
  describe?: (result: R) => object | undefined;
}): PeriodicJob {
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
        (result) => {
          const summary = options.describe?.(result);
          if (summary) options.logger.info({ job: options.name, ...summary }, `${options.name} pass done`);
        },
        (error: unknown) =>
          options.logger.warn({ job: options.name, err: error }, `${options.name} pass failed`),
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
