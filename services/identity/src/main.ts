import { loadConfigOrExit } from '@tap/config';
import {
  createMongoDependency,
  createNatsDependency,
  createRedisDependency,
  runGrpcService,
  startObservability,
} from '@tap/runtime';
import { contracts } from '@tap/contracts';
import { createClient, tlsFromFiles } from '@tap/grpc-kit';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { natsDomainEventSink } from './events/domain-event-sink.js';

// Configuration first: a bad value stops the process with one line per variable, before
// telemetry, sockets or connections exist.
const config = loadConfigOrExit('identity', () => loadConfig(process.env));
// Prometheus: one registry for the process (GET /metrics on the health port), gRPC calls reported to it.
const { telemetry, logger, readiness } = startObservability('identity', config);

const mongo = createMongoDependency({
  url: config.mongo.url,
  database: config.mongo.database,
  appName: 'identity',
  readiness,
  logger,
});
const redis = createRedisDependency({ url: config.redis.url, name: 'identity', readiness, logger });
// Not a readiness check: identity serves sign-ins while the bus is down, and its outboxes keep
// the domain events until NATS is back (docs/identity.md, "Domain events").
const nats = createNatsDependency({ servers: config.domainEvents.natsUrl, name: 'identity', logger });
const events = natsDomainEventSink({
  connection: () => nats.current(),
  streamName: config.domainEvents.streamName,
  subjectPrefix: config.domainEvents.subjectPrefix,
});
const tls = tlsFromFiles(config.grpcTls);
// Identity's own certificate: entitlements admits only `identity` to its seat RPCs.
const entitlements = createClient(
  contracts().entitlements.EntitlementsService,
  config.entitlementsAddress,
  tls,
);
const app = buildApp({
  config,
  db: mongo.db,
  redis,
  tls,
  logger,
  entitlements: () => entitlements,
  events,
  outboxRelayIntervalMs: config.domainEvents.relayIntervalMs,
});

await runGrpcService({
  name: 'identity',
  host: config.host,
  grpcPort: config.grpcPort,
  httpPort: config.httpPort,
  logger,
  readiness,
  grpc: app.grpc,
  prepare: async (signal) => {
    await mongo.connected();
    await app.prepare();
    app.startBackground(signal);
  },
  shutdownSteps: [
    { name: 'entitlements client', run: async () => entitlements.close() },
    { name: 'nats', run: () => nats.close() },
    { name: 'mongo', run: () => mongo.close() },
    { name: 'redis', run: async () => void (await redis.quit().catch(() => undefined)) },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
