/** sysexits' EX_SOFTWARE: the process ended itself on a bug (78, EX_CONFIG, is a bad configuration). */
export const FATAL_EXIT_CODE = 70;

/** Stable log messages, for alerts and for the supervisor's readers. */
export const UNCAUGHT_EXCEPTION_MESSAGE =
  'FATAL uncaught exception: exiting so that a clean process replaces this one';
export const UNHANDLED_REJECTION_MESSAGE =
  'FATAL unhandled rejection: exiting so that a clean process replaces this one';

/** The slice of a pino logger the policy uses. */
export interface FatalLogger {
  fatal(object: object, message: string): void;
}

let installed = false;

/**
 * The process policy of every service (docs/security.md, "Process policy"). An exception nobody
 * caught, or a promise rejection nobody handled, is a bug of ours with the process in an unknown
 * state (a half-sent answer, a lock never released, a connection mid-write). The process logs it
 * once at fatal level with a stable message, then exits FATAL_EXIT_CODE at once, without a drain
 * that could hang in that state; Kubernetes (or `npm run up`'s supervisor) starts a clean one.
 * Callers see UNAVAILABLE for calls in flight, and idempotent reads are retried by grpc-kit.
 * Idempotent per process: the first call wins.
 */
export function installProcessPolicy(options: {
  service: string;
  logger: FatalLogger;
  /** For tests; default process.exit. */
  exit?: (code: number) => void;
}): void {
  if (installed) return;
  installed = true;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  let ending = false;
  const end = (message: string, error: unknown, origin: string): void => {
    // A second fault while ending (e.g. a failing logger) must not loop; exit is already due.
    if (!ending) {
      ending = true;
      try {
        options.logger.fatal({ origin, err: error }, message);
      } catch {
        process.stderr.write(`${options.service}: ${message}\n`);
      }
    }
    exit(FATAL_EXIT_CODE);
  };
  process.on('uncaughtException', (error, origin) => end(UNCAUGHT_EXCEPTION_MESSAGE, error, origin));
  process.on('unhandledRejection', (reason) =>
    end(UNHANDLED_REJECTION_MESSAGE, reason, 'unhandledRejection'),
  );
}
