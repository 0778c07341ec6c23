import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

export interface TelemetryOptions {
  readonly serviceName: string;
  /** OTLP/HTTP traces endpoint, e.g. http://collector:4318/v1/traces. Off when absent. */
  readonly otlpTracesUrl?: string | undefined;
  /** Extra exporter (tests pass an in-memory one). */
  readonly exporter?: SpanExporter;
}

export interface Telemetry {
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK. Call it first in main.ts, before the app is built, so every
 * span the process makes has a provider. Spans are always created and W3C context always
 * propagated (gRPC metadata, NATS headers); they leave the process only when an exporter is set.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const processors: SpanProcessor[] = [];
  if (options.otlpTracesUrl)
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url: options.otlpTracesUrl })));
  if (options.exporter) processors.push(new BatchSpanProcessor(options.exporter));
  const sdk = new NodeSDK({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: processors,
    textMapPropagator: new W3CTraceContextPropagator(),
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
