import { isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

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
  /** Where lines go; standard output (synchronously, see below) unless a test gives a stream. */
  destination?: DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
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
 * Standard output, written synchronously. pino's implicit default is asynchronous and flushes
 * at exit with sonic-boom's flushSync, which (sonic-boom 4.2) retries every 100 ms forever when
 * the reader has gone (EPIPE): a service whose log reader died first (a local stack stopped
 * with Ctrl-C) then never exited, not even through the shutdown guard's exit(1). Synchronous
 * writes leave nothing to flush at exit, and pino's destination turns EPIPE into silence.
 */
function standardOutput(): DestinationStream {
  return pino.destination({ fd: 1, sync: true });
}
