export { startTelemetry } from './start-telemetry.js';
export type { Telemetry, TelemetryOptions } from './start-telemetry.js';
export { withSpan } from './with-span.js';
export type { SpanOptions, ExpectedErrorTest } from './with-span.js';
export { createLogger, REDACTED_PATHS } from './logger.js';
export type { Logger } from './logger.js';
export { installTestTracing } from './test-tracing.js';
export type { TestTracing } from './test-tracing.js';
