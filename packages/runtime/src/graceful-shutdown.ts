import type { Readiness } from './readiness.js';

/** One thing to stop, in order: stop accepting, finish in-flight work, then close clients. */
export interface ShutdownStep {
  readonly name: string;
  readonly run: () => Promise<void>;
}

export interface ShutdownLogger {
  info(object: object, message: string): void;
  error(object: object, message: string): void;
}

export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 4_500;

export interface GracefulShutdown {
  /** Runs the steps once; later calls wait for the same run. */
  shutdown(reason: string): Promise<void>;
}

/**
 * On SIGTERM or SIGINT: readiness turns false first, then each step runs in order, then the
 * process exits 0. A step that fails is logged and the next one still runs. If everything has
 * not finished within `timeoutMs` the process exits 1, so an orchestrator never waits forever.
 */
export function installGracefulShutdown(options: {
  readiness: Readiness;
  steps: readonly ShutdownStep[];
  logger: ShutdownLogger;
  timeoutMs?: number;
  /** Seconds to keep serving after readiness turns false (lets load balancers notice). */
  drainDelayMs?: number;
  exit?: (code: number) => void;
  signals?: readonly NodeJS.Signals[];
}): GracefulShutdown {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let running: Promise<void> | undefined;

  const run = async (reason: string): Promise<void> => {
    const started = Date.now();
    options.logger.info({ reason }, 'shutting down');
    options.readiness.markShuttingDown();
    const guard = setTimeout(() => {
      options.logger.error(
        { timeoutMs: options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS },
        'shutdown timed out',
      );
      exit(1);
    }, options.timeoutMs ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
    guard.unref();
    if (options.drainDelayMs) await new Promise((resolve) => setTimeout(resolve, options.drainDelayMs));
    for (const step of options.steps) {
      try {
        const stepStarted = Date.now();
        await step.run();
        options.logger.info({ step: step.name, ms: Date.now() - stepStarted }, 'shutdown step done');
      } catch (error) {
        options.logger.error({ step: step.name, err: error }, 'shutdown step failed');
      }
    }
    clearTimeout(guard);
    options.logger.info({ ms: Date.now() - started }, 'shutdown complete');
    exit(0);
  };

  const shutdown = (reason: string): Promise<void> => {
    running ??= run(reason);
    return running;
  };
  // `on`, not `once`: a second signal (Ctrl-C reaches a whole process group, a supervisor may
  // send SIGTERM as well) joins the shutdown under way instead of killing the process mid-drain.
  for (const signal of options.signals ?? ['SIGTERM', 'SIGINT']) {
    process.on(signal, () => void shutdown(signal));
  }
  return { shutdown };
}
