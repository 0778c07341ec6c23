import { metricsRoute } from '@tap/telemetry';
import { startHealthServer, type ExtraRoute } from './health-server.js';
import { installGracefulShutdown, type GracefulShutdown, type ShutdownStep } from './graceful-shutdown.js';
import type { Readiness } from './readiness.js';
import { installProcessPolicy } from './process-policy.js';
import { retryWithBackoff } from './retry.js';

/** The slice of a gRPC server this runner drives (see @tap/grpc-kit's createGrpcServer). */
export interface ListeningServer {
  listen(host: string, port: number): Promise<number>;
  shutdown(timeoutMs?: number): Promise<void>;
}

export interface RunLogger {
  info(object: object | string, message?: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
  fatal(object: object, message: string): void;
}

/**
 * The common life of a gRPC service process: the process policy (an uncaught exception or
 * unhandled rejection is logged at fatal level and ends the process), health port first (alive at once, not ready),
 * gRPC listening, `prepare` retried with backoff until its dependencies answer (indexes, keys,
 * streams, consumers), and on SIGTERM: not ready, stop background work, finish in-flight
 * calls, run the service's own steps (consumers, clients), close the health port, exit 0.
 * The health port also answers `GET /metrics` (Prometheus, the process's registry).
 */
export async function runGrpcService(options: {
  name: string;
  host: string;
  grpcPort: number;
  httpPort: number;
  logger: RunLogger;
  readiness: Readiness;
  grpc: ListeningServer;
  prepare?: (signal: AbortSignal) => Promise<void>;
  /** Run after gRPC has stopped accepting and finished its calls, in order. */
  shutdownSteps?: readonly ShutdownStep[];
  /** More routes of the health port, asked after `/metrics`. */
  extraRoute?: ExtraRoute;
}): Promise<{ grpcPort: number; httpPort: number; shutdown: GracefulShutdown }> {
  const { logger } = options;
  installProcessPolicy({ service: options.name, logger });
  options.readiness.setLogger(logger);
  const stopping = new AbortController();
  let prepared = options.prepare === undefined;
  options.readiness.register('prepared', async () => {
    if (!prepared) throw new Error('still preparing');
  });

  const health = await startHealthServer({
    host: options.host,
    port: options.httpPort,
    readiness: options.readiness,
    extraRoute: withMetrics(options.extraRoute),
  });
  const grpcPort = await options.grpc.listen(options.host, options.grpcPort);
  logger.info({ grpcPort, httpPort: health.port }, `${options.name} listening`);

  if (options.prepare) {
    const prepare = options.prepare;
    retryWithBackoff(() => prepare(stopping.signal), {
      signal: stopping.signal,
      onRetry: (error, attempt, delayMs) =>
        logger.warn(
          { attempt, delayMs, err: (error as Error).message },
          `${options.name} not prepared yet; retrying`,
        ),
    }).then(
      () => {
        prepared = true;
        logger.info({}, `${options.name} prepared`);
      },
      () => undefined,
    );
  }

  const shutdown = installGracefulShutdown({
    readiness: options.readiness,
    logger,
    steps: [
      { name: 'background work', run: async () => stopping.abort() },
      { name: 'grpc', run: () => options.grpc.shutdown() },
      ...(options.shutdownSteps ?? []),
      { name: 'health', run: () => health.close() },
    ],
  });
  return { grpcPort, httpPort: health.port, shutdown };
}

function withMetrics(extra: ExtraRoute | undefined): ExtraRoute {
  const metrics = metricsRoute();
  return async (path) => (await metrics(path)) ?? (extra ? extra(path) : undefined);
}
