import { collectDefaultMetrics, Registry } from 'prom-client';

let registry: Registry | undefined;

/**
 * The process's one Prometheus registry, created on first use with the default process metrics
 * (CPU, RSS, heap, event-loop delay, GC). Every series of this package is registered on it.
 */
export function metricsRegistry(): Registry {
  if (!registry) {
    registry = new Registry();
    collectDefaultMetrics({ register: registry });
  }
  return registry;
}

/** Labels every series of this process with `service` (call once, in main.ts). */
export function initMetrics(service: string): Registry {
  const registry = metricsRegistry();
  registry.setDefaultLabels({ service });
  return registry;
}

/** One answer of a `GET /metrics`: the text exposition format. */
export interface MetricsAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Renders the registry for a scrape. */
export async function renderMetrics(): Promise<MetricsAnswer> {
  const registry = metricsRegistry();
  return { status: 200, contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * A route for the health server of a gRPC service (`extraRoute` of @tap/runtime): answers
 * `/metrics`, nothing else.
 */
export function metricsRoute(): (path: string) => Promise<MetricsAnswer | undefined> {
  return async (path) => (path === '/metrics' ? renderMetrics() : undefined);
}
