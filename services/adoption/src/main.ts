import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfigOrExit } from '@tap/config';
import { contracts, type ProductEvent } from '@tap/contracts';
import {
  createEventPublisher,
  createRedisLease,
  DEFAULT_LEASE_TTL_MS,
  type BatchConsumer,
} from '@tap/events';
import { createClient, DependencyUnavailableError, setRpcObserver, tlsFromFiles } from '@tap/grpc-kit';
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

const config = loadConfigOrExit('adoption', () => loadConfig(process.env));
const telemetry = startTelemetry({ serviceName: 'adoption', otlpTracesUrl: config.otlpTracesUrl });
const logger = createLogger({ service: 'adoption', level: config.logLevel as 'info' });
// Prometheus: one registry for the process (GET /metrics on the health port), gRPC calls reported to it.
initMetrics('adoption');
setRpcObserver(rpcMetricsObserver);
const readiness = new Readiness();

const mongo = createMongoDependency({
  url: config.mongo.url,
  database: config.mongo.database,
  appName: 'adoption',
  readiness,
  logger,
});
const nats = createNatsDependency({ servers: config.nats.url, name: 'adoption', readiness, logger });
// The revocation list: a token of a signed-out session is refused here too. Fails closed, with the
// gateway's budget (GATEWAY_REVOCATION_TIMEOUT_MS default) rather than the limiter's 100 ms.
const redis = createRedisDependency({
  url: config.redis.url,
  name: 'adoption',
  readiness,
  logger,
  commandTimeoutMs: 1_000,
});
const tls = tlsFromFiles(config.grpcTls);
const jwks = identityTokenVerifier(config.identityAddress, tls, config.tokens, logger);
const verifier = jwks.verifier;
const revocations = redisSessionRevocations(redis, DEFAULT_REVOCATION_KEY_PREFIX);
const entitlements = createClient(
  contracts().entitlements.EntitlementsService,
  config.entitlementsAddress,
  tls,
);

const publish = async (event: ProductEvent) => {
  const nc = nats.current();
  if (!nc) throw new DependencyUnavailableError('nats is not connected yet');
  return createEventPublisher(jetstream(nc), { subjectPrefix: config.events.subjectPrefix }).publish(event);
};

const app = buildApp({ config, db: mongo.db, verifier, revocations, tls, entitlements, publish, logger });
let consumer: BatchConsumer | undefined;
let driftWatch: ReturnType<typeof app.startDriftWatch> | undefined;
let outboxRelay: ReturnType<typeof app.startOutboxRelay> | undefined;

await runGrpcService({
  name: 'adoption',
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
      // One active owner across replicas: two pulling one durable could reorder a tenant's events.
      const lease = createRedisLease({
        redis,
        key: `lease:adoption:${config.events.consumerName}`,
        ttlMs: DEFAULT_LEASE_TTL_MS,
      });
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
    driftWatch ??= app.startDriftWatch();
    outboxRelay ??= app.startOutboxRelay();
  },
  shutdownSteps: [
    // A pass in flight finishes its tenant writes before Mongo closes.
    { name: 'drift watch', run: async () => driftWatch?.stop() },
    // A relay pass in flight finishes its publish and outbox write before NATS and Mongo close.
    { name: 'outbox relay', run: async () => outboxRelay?.stop() },
    // The consumer stops pulling and acks what it finished before the connection drains.
    { name: 'consumer', run: async () => consumer?.stop() },
    { name: 'nats', run: () => nats.close() },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => undefined)) },
    {
      name: 'grpc clients',
      run: async () => {
        entitlements.close();
        jwks.close();
      },
    },
    { name: 'mongo', run: () => mongo.close() },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
