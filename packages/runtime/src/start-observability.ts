import { setRpcObserver } from '@tap/grpc-kit';
import {
  createLogger,
  initMetrics,
  rpcMetricsObserver,
  startTelemetry,
  type Logger,
  type Telemetry,
} from '@tap/telemetry';
import { Readiness } from './readiness.js';

/**
 * A service process's first steps once its configuration is loaded: traces, the logger, one
 * Prometheus registry for the process with its gRPC calls reported to it, and an empty
 * readiness set for its dependencies to register with.
 */
export function startObservability(
  name: string,
  config: { readonly otlpTracesUrl?: string | undefined; readonly logLevel: string },
): { telemetry: Telemetry; logger: Logger; readiness: Readiness } {
  const telemetry = startTelemetry({ serviceName: name, otlpTracesUrl: config.otlpTracesUrl });
  const logger = createLogger({ service: name, level: config.logLevel as 'info' });
  initMetrics(name);
  setRpcObserver(rpcMetricsObserver);
  return { telemetry, logger, readiness: new Readiness() };
}
