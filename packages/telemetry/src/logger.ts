import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type Logger, type LevelWithSilent } from 'pino';
import { requestLogSerializer } from './redact-url.js';

export type { Logger } from 'pino';

/** Fields that never reach a log line, wherever they appear. */
export const REDACTED_PATHS: readonly string[] = [
  'password',
  '*.password',
  'secret',
  '*.secret',
  'clientSecret',
  '*.clientSecret',
  'client_secret',
  '*.client_secret',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'refreshToken',
  '*.refreshToken',
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.mongoUrl',
];

/**
 * JSON logs carrying the active trace and span ids, with secrets redacted. One logger per
 * process; components take a child (`logger.child({ component })`).
 */
export function createLogger(options: {
  service: string;
  level?: LevelWithSilent;
  /** Where lines go (tests capture them); the process's stdout when absent. */
  destination?: NodeJS.WritableStream;
}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
      // Request URLs without their query strings (SSO code and state, refused magic-link tokens).
      serializers: { req: requestLogSerializer },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin() {
        const context = trace.getActiveSpan()?.spanContext();
        return context && isSpanContextValid(context)
          ? { trace_id: context.traceId, span_id: context.spanId }
          : {};
      },
    },
    options.destination ?? standardOutput(),
  );
}

/**
 * Node's own `process.stdout`, not pino's default sonic-boom destination. With sonic-boom 4.2
 * (what pino 10 pins), pino flushes at exit with `flushSync`, which retries a write that fails
 * for good (EPIPE: the log reader has gone) every 100 ms forever: a local stack stopped with
 * Ctrl-C left a service that never exited, not even through the shutdown guard's `exit(1)`.
 * Its synchronous mode instead sleeps 100 ms, event loop blocked, whenever a pipe is full.
 * `process.stdout` writes a pipe synchronously on Linux (the process waits for the reader, no
 * sleeping), leaves nothing to flush at exit, and a gone reader is one 'error' we drop below.
 * Cost and comparison: bench/logging.
 */
function standardOutput(): NodeJS.WritableStream {
  if (!droppingBrokenPipe) {
    droppingBrokenPipe = true;
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      // The reader has gone: nothing can be logged any more, and that must not end the process.
      if (error.code !== 'EPIPE') throw error;
    });
  }
  return process.stdout;
}

// One listener for the process, however many loggers it makes (tests make several).
let droppingBrokenPipe = false;
