import { loadConfigOrExit } from '@tap/config';
import { jetstreamManager } from '@nats-io/jetstream';
import { createRedisLease, DEFAULT_LEASE_TTL_MS, type BatchConsumer } from '@tap/events';
import { setRpcObserver, tlsFromFiles } from '@tap/grpc-kit';
import {
  createMongoDependency,
  createNatsDependency,
  createRedisDependency,
  Readiness,
  runGrpcService,
} from '@tap/runtime';
import { identityTokenVerifier, redisSessionRevocations } from '@tap/service-auth';
import { DEFAULT_REVOCATION_KEY_PREFIX } from '@tap/tokens';
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
// The revocation list: a token of a signed-out session is refused here too. Fails closed, with the
// gateway's budget (GATEWAY_REVOCATION_TIMEOUT_MS default) rather than the limiter's 100 ms.
const redis = createRedisDependency({
  url: config.redis.url,
  name: 'entitlements',
  readiness,
  logger,
  commandTimeoutMs: 1_000,
});
const tls = tlsFromFiles(config.grpcTls);
const jwks = identityTokenVerifier(config.identityAddress, tls, config.tokens, logger);
const verifier = jwks.verifier;
const revocations = redisSessionRevocations(redis, DEFAULT_REVOCATION_KEY_PREFIX);
const app = buildApp({ config, db: mongo.db, verifier, revocations, tls, logger });
let consumer: BatchConsumer | undefined;
let stopNotices: (() => void) | undefined;
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
      // One replica counts at a time (docs/entitlements-model.md): the holder of this lease.
      const lease = createRedisLease({
        redis,
        key: `lease:entitlements:${config.events.consumerName}`,
        ttlMs: DEFAULT_LEASE_TTL_MS,
      });
      // Cached reads drop what another replica's write made older (docs/entitlements-model.md).
      stopNotices ??= app.startReadModelNotices(nc);
      const started = await app.startConsumer(nc, { lease });
      consumer = started;
      // Counters and lag (JetStream's num_pending, asked at scrape) on /metrics.
      const jsm = await jetstreamManager(nc);
      const { streamName, consumerName } = config.events;
      watchConsumer(consumerName, {
        stats: () => {
          const stats = started.stats();
          return { ...stats, failed: stats.retried };
        },
        pending: async () => (await jsm.consumers.info(streamName, consumerName)).num_pending,
      });
    }
    cleanup ??= app.startCleanup();
  },
  shutdownSteps: [
    // The consumer stops pulling and acks what it finished before the connection drains.
    { name: 'consumer', run: async () => consumer?.stop() },
    { name: 'cleanup', run: async () => cleanup?.stop() },
    { name: 'read-model notices', run: async () => stopNotices?.() },
    { name: 'nats', run: () => nats.close() },
    {
      name: 'identity client',
      run: async () => {
        jwks.close();
      },
    },
    { name: 'mongo', run: () => mongo.close() },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => undefined)) },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
