import { Counter, Histogram, type Registry } from 'prom-client';
import { metricsRegistry } from './registry.js';

/** Latency buckets in seconds, 1 ms to 10 s (HTTP, gRPC, databases). */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const cache = new Map<string, unknown>();

function once<T>(name: string, make: (registry: Registry) => T): T {
  const found = cache.get(name) as T | undefined;
  if (found) return found;
  const made = make(metricsRegistry());
  cache.set(name, made);
  return made;
}

/** Names of every series this package defines (documented in docs/operations.md). */
export const METRIC_NAMES = {
  httpRequests: 'http_server_requests_total',
  httpDuration: 'http_server_request_duration_seconds',
  rpcServerCalls: 'rpc_server_calls_total',
  rpcServerDuration: 'rpc_server_duration_seconds',
  rpcClientCalls: 'rpc_client_calls_total',
  rpcClientDuration: 'rpc_client_duration_seconds',
  limiterDecisions: 'ratelimit_decisions_total',
  dbDuration: 'db_client_operation_duration_seconds',
  consumerDelivered: 'events_consumer_delivered_total',
  consumerApplied: 'events_consumer_applied_total',
  consumerInvalid: 'events_consumer_invalid_total',
  consumerFailed: 'events_consumer_failed_total',
  consumerRedelivered: 'events_consumer_redeliveries_total',
  consumerDeadLettered: 'events_consumer_dead_lettered_total',
  consumerPending: 'events_consumer_pending',
  answerCacheLookups: 'gateway_answer_cache_lookups_total',
} as const;

/** `2xx`, `4xx`, … from an HTTP status code. */
export function statusClass(statusCode: number): string {
  return `${Math.floor(statusCode / 100)}xx`;
}

/** Records one HTTP request: `route` is the route pattern (never the raw URL). */
export function observeHttpRequest(route: string, method: string, statusCode: number, seconds: number): void {
  const labels = { route, method, status_class: statusClass(statusCode) };
  once(
    METRIC_NAMES.httpRequests,
    (r) =>
      new Counter({
        name: METRIC_NAMES.httpRequests,
        help: 'HTTP requests answered',
        labelNames: ['route', 'method', 'status_class'],
        registers: [r],
      }),
  ).inc(labels);
  once(
    METRIC_NAMES.httpDuration,
    (r) =>
      new Histogram({
        name: METRIC_NAMES.httpDuration,
        help: 'HTTP request duration in seconds',
        labelNames: ['route', 'method', 'status_class'],
        buckets: LATENCY_BUCKETS,
        registers: [r],
      }),
  ).observe(labels, seconds);
}

/** Whether the gateway's answer cache had a tenant's read answer (`hit`) or asked the service (`miss`). */
export type AnswerCacheOutcome = 'hit' | 'miss';

/** Records one lookup of the gateway's answer cache; `route` is the route pattern. */
export function countAnswerCacheLookup(route: string, outcome: AnswerCacheOutcome): void {
  once(
    METRIC_NAMES.answerCacheLookups,
    (r) =>
      new Counter({
        name: METRIC_NAMES.answerCacheLookups,
        help: "Tenant read answers looked up in the gateway's answer cache, by outcome",
        labelNames: ['route', 'outcome'],
        registers: [r],
      }),
  ).inc({ route, outcome });
}

const GRPC_CODES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

/** The name of a numeric gRPC status code (`UNAVAILABLE` for 14). */
export function grpcCodeName(code: number): string {
  return GRPC_CODES[code] ?? String(code);
}

function rpcSeries(side: 'server' | 'client'): { calls: Counter; duration: Histogram } {
  const callsName = side === 'server' ? METRIC_NAMES.rpcServerCalls : METRIC_NAMES.rpcClientCalls;
  const durationName = side === 'server' ? METRIC_NAMES.rpcServerDuration : METRIC_NAMES.rpcClientDuration;
  return {
    calls: once(
      callsName,
      (r) =>
        new Counter({
          name: callsName,
          help: `gRPC ${side} calls finished`,
          labelNames: ['method', 'code'],
          registers: [r],
        }),
    ),
    duration: once(
      durationName,
      (r) =>
        new Histogram({
          name: durationName,
          help: `gRPC ${side} call duration in seconds`,
          labelNames: ['method', 'code'],
          buckets: LATENCY_BUCKETS,
          registers: [r],
        }),
    ),
  };
}

/**
 * Observer of gRPC calls, in the shape @tap/grpc-kit's `setRpcObserver` takes: `method` is
 * `Service/Method`, `code` the numeric status.
 */
export const rpcMetricsObserver = {
  serverCall(method: string, code: number, seconds: number): void {
    const { calls, duration } = rpcSeries('server');
    const labels = { method, code: grpcCodeName(code) };
    calls.inc(labels);
    duration.observe(labels, seconds);
  },
  clientCall(method: string, code: number, seconds: number): void {
    const { calls, duration } = rpcSeries('client');
    const labels = { method, code: grpcCodeName(code) };
    calls.inc(labels);
    duration.observe(labels, seconds);
  },
};

/** A rate-limiter decision's outcome: admitted or refused by Redis, or decided by a fallback policy. */
export type LimiterOutcome = 'allowed' | 'refused' | 'fallback';

/** Counts one limiter decision of `policy` (the binding rule's name). */
export function countLimiterDecision(policy: string, outcome: LimiterOutcome): void {
  once(
    METRIC_NAMES.limiterDecisions,
    (r) =>
      new Counter({
        name: METRIC_NAMES.limiterDecisions,
        help: 'Rate-limiter decisions',
        labelNames: ['policy', 'outcome'],
        registers: [r],
      }),
  ).inc({ policy, outcome });
}

/** Records one database command: `system` is `mongodb` or `redis`, `outcome` `ok` or `error`. */
export function observeDbOperation(
  system: 'mongodb' | 'redis',
  operation: string,
  seconds: number,
  outcome: 'ok' | 'error',
): void {
  once(
    METRIC_NAMES.dbDuration,
    (r) =>
      new Histogram({
        name: METRIC_NAMES.dbDuration,
        help: 'MongoDB and Redis command duration in seconds',
        labelNames: ['system', 'operation', 'outcome'],
        buckets: LATENCY_BUCKETS,
        registers: [r],
      }),
  ).observe({ system, operation: operation.toLowerCase(), outcome }, seconds);
}
