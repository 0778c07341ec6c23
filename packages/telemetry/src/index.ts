export { startTelemetry } from './start-telemetry.js';
export type { Telemetry, TelemetryOptions } from './start-telemetry.js';
export { withSpan } from './with-span.js';
export type { SpanOptions, ExpectedErrorTest } from './with-span.js';
export { createLogger, REDACTED_PATHS } from './logger.js';
export type { Logger } from './logger.js';
export { redactUrl, requestLogSerializer } from './redact-url.js';
export type { LoggedRequest } from './redact-url.js';
export { installTestTracing } from './test-tracing.js';
export { tracesRecorded } from './traces-recorded.js';
export type { TestTracing } from './test-tracing.js';
export { initMetrics, metricsRegistry, metricsRoute, renderMetrics } from './metrics/registry.js';
export type { MetricsAnswer } from './metrics/registry.js';
export {
  countAnswerCacheLookup,
  countLimiterDecision,
  grpcCodeName,
  LATENCY_BUCKETS,
  METRIC_NAMES,
  observeDbOperation,
  observeHttpRequest,
  rpcMetricsObserver,
  statusClass,
} from './metrics/series.js';
export type { AnswerCacheOutcome, LimiterOutcome } from './metrics/series.js';
export { watchConsumer, PENDING_SAMPLE_TIMEOUT_MS } from './metrics/consumer-metrics.js';
export type { ConsumerCounts, WatchedConsumer } from './metrics/consumer-metrics.js';
export { instrumentRedis } from './metrics/redis-metrics.js';
export type { TimedRedis } from './metrics/redis-metrics.js';
export { observeMongoCommands } from './metrics/mongo-metrics.js';
export type { MonitoredMongoClient } from './metrics/mongo-metrics.js';
export { countLimiterDecisions, limiterOutcome } from './metrics/limiter-metrics.js';
export type { CountedDecision } from './metrics/limiter-metrics.js';
export { readSample } from './metrics/read-sample.js';
