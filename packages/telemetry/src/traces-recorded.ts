import { ProxyTracerProvider, trace } from '@opentelemetry/api';

/** What an unregistered global provider delegates to (the API's no-op provider). */
const NO_PROVIDER = new ProxyTracerProvider().getDelegate();

/**
 * Whether a tracer provider is registered in this process (startTelemetry with an exporter, or a
 * test's installTestTracing). Without one every span is a no-op, so per-request instrumentation
 * that only makes spans (the gateway's Fastify plugin) is left out rather than run for nothing;
 * such a process then starts each request's trace afresh instead of continuing a caller's.
 */
export function tracesRecorded(): boolean {
  const provider = trace.getTracerProvider();
  return !(provider instanceof ProxyTracerProvider) || provider.getDelegate() !== NO_PROVIDER;
}
