import { loadConfigOrExit } from '@tap/config';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DurableConsumer } from '@tap/events';
import { setRpcObserver } from '@tap/grpc-kit';
import { createMongoDependency, createNatsDependency, Readiness, runGrpcService } from '@tap/runtime';
import { identityTokenVerifier } from '@tap/service-auth';
import { createLogger, initMetrics, rpcMetricsObserver, startTelemetry, watchConsumer } from '@tap/telemetry';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { CleanupJob } from './jobs/cleanup-job.js';

const config = loadConfigOrExit('entitlements', () => loadConfig(process.env));
const telemetry = startTelemetry({ serviceName: 'entitlements', otlpTracesUrl: config.otlpTracesUrl });
const logger = createLogger({ service: 'entitlements', level: config.logLevel as 'info' });
// Prometheus: one registry for the process (GET /metrics on the health port), gRPC calls reported to it.
initMetrics('entitlements');
setRpcObserver(rpcMetricsObserver);
const readiness = new Readiness();

const mongo = createMongoDependency({
  url: config.mongo.url,
  database: config.mongo.database,
  appName: 'entitlements',
  readiness,
  logger,
});
const nats = createNatsDependency({ servers: config.nats.url, name: 'entitlements', readiness, logger });
const jwks = identityTokenVerifier(config.identityAddress, config.tokens, logger);
const verifier = jwks.verifier;
const app = buildApp({ config, db: mongo.db, verifier, logger });
let consumer: DurableConsumer | undefined;
let cleanup: CleanupJob | undefined;

await runGrpcService({
  name: 'entitlements',
  host: config.host,
  grpcPort: config.grpcPort,
  httpPort: config.httpPort,
  logger,
  readiness,
  grpc: app.grpc,
  prepare: async () => {
    await mongo.connected();
    await app.prepare();
    if (!consumer) {
      const nc = await nats.connected();
      const started = await app.startConsumer(nc);
      consumer = started;
      // Counters and lag (JetStream's num_pending, asked at scrape) on /metrics.
      const jsm = await jetstreamManager(nc);
      const { streamName, consumerName } = config.events;
      watchConsumer(consumerName, {
        stats: () => started.stats(),
        pending: async () => (await jsm.consumers.info(streamName, consumerName)).num_pending,
      });
    }
    cleanup ??= app.startCleanup();
  },
  shutdownSteps: [
    // The consumer stops pulling and acks what it finished before the connection drains.
    { name: 'consumer', run: async () => consumer?.stop() },
    { name: 'cleanup', run: async () => cleanup?.stop() },
    { name: 'nats', run: () => nats.close() },
    {
      name: 'identity client',
      run: async () => {
        jwks.close();
      },
    },
    { name: 'mongo', run: () => mongo.close() },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
