import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { tlsFromFiles, type ServiceTls, type TlsFiles } from '@tap/grpc-kit';
import {
  identityTokenVerifier,
  redisSessionRevocations,
  type SessionRevocations,
  type TokenCheckConfig,
} from '@tap/service-auth';
import { watchConsumer, type ConsumerCounts, type Logger } from '@tap/telemetry';
import { createVerificationCache, DEFAULT_REVOCATION_KEY_PREFIX, type TokenVerifier } from '@tap/tokens';
import type { Redis } from 'ioredis';
import type { Db } from 'mongodb';
import { createMongoDependency } from './connect/mongo.js';
import { createNatsDependency, type NatsDependency } from './connect/nats.js';
import { createRedisDependency } from './connect/redis.js';
import type { ShutdownStep } from './graceful-shutdown.js';
import { startObservability } from './start-observability.js';
import { runGrpcService, type ListeningServer } from './run-grpc-service.js';

/**
 * The revocation list fails closed with the gateway's budget (GATEWAY_REVOCATION_TIMEOUT_MS
 * default), not the limiter's 100 ms: a slow Redis must not refuse every signed-in call.
 */
const REVOCATION_COMMAND_TIMEOUT_MS = 1_000;

/** What a gRPC service that consumes product events reads from its config (defaults applied): TOKEN_CHECK_ENV's fields and these. */
export interface ConsumingServiceConfig extends TokenCheckConfig {
  readonly host: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly mongo: { readonly url: string; readonly database: string };
  readonly nats: { readonly url: string };
  readonly events: { readonly streamName: string; readonly consumerName: string };
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
  readonly grpcTls: TlsFiles;
}

/** What `build` gets: the connections and checks every consuming service needs, made once. */
export interface ServiceParts {
  readonly logger: Logger;
  readonly db: Db;
  readonly nats: NatsDependency;
  readonly tls: ServiceTls;
  /** identity's key set, refetched every `tokens.jwksRefreshIntervalMs`. */
  readonly verifier: TokenVerifier;
  /** The logout revocation list on Redis (fails closed). */
  readonly revocations: SessionRevocations;
  /** The process's Redis connection (the revocation list's; also the consumer's lease). */
  readonly redis: Redis;
  /** Closes a client `build` made (a gRPC client of another service) when the process stops. */
  closeOnShutdown(name: string, close: () => void): void;
}

/** The slice of a built service the runner drives. */
export interface ConsumingServiceApp {
  readonly grpc: ListeningServer;
  prepare(): Promise<void>;
  startConsumer(nc: NatsConnection): Promise<{ stop(): Promise<void>; stats(): ConsumerCounts }>;
  /**
   * Publishes this replica's read-model changes and drops what other replicas' writes made older
   * (core NATS notices); returns the stop function. Started before the consumer, stopped after it
   * has acked what it finished.
   */
  startReadModelNotices?(nc: NatsConnection): () => void;
}

/** Scheduled work started once the service is prepared (a drift watch, a clean-up job). */
export interface BackgroundWork {
  readonly name: string;
  start(): { stop(): Promise<void> };
}

/**
 * The start-up of a gRPC service that consumes product events, written once: telemetry and
 * metrics first, then MongoDB, NATS and Redis connected in the background, the identity key set
 * and the revocation list, the service built by `build`, and runGrpcService's life (health
 * port, gRPC, `prepare` retried until the dependencies answer, graceful SIGTERM). Once prepared
 * it starts the durable consumer (its counters and lag on /metrics) and `background`. On
 * SIGTERM: background work, consumer, NATS, clients, Redis, MongoDB, telemetry, in that order.
 */
export async function runConsumingService<A extends ConsumingServiceApp>(options: {
  name: string;
  config: ConsumingServiceConfig;
  build(parts: ServiceParts): A;
  background?: (app: A) => readonly BackgroundWork[];
}): Promise<void> {
  const { name, config } = options;
  // Prometheus: one registry for the process (GET /metrics on the health port), gRPC calls reported to it.
  const { telemetry, logger, readiness } = startObservability(name, config);
  const mongo = createMongoDependency({
    url: config.mongo.url,
    database: config.mongo.database,
    appName: name,
    readiness,
    logger,
  });
  const nats = createNatsDependency({ servers: config.nats.url, name, readiness, logger });
  const redis = createRedisDependency({
    url: config.redis.url,
    name,
    readiness,
    logger,
    commandTimeoutMs: REVOCATION_COMMAND_TIMEOUT_MS,
  });
  const tls = tlsFromFiles(config.grpcTls);
  const jwks = identityTokenVerifier(config.identityAddress, tls, config.tokens, logger);
  const clients: ShutdownStep[] = [{ name: 'identity key set', run: async () => jwks.close() }];
  const app = options.build({
    logger,
    db: mongo.db,
    nats,
    tls,
    // As in the gateway: a token sent on every request pays for one ES256 verification, not one
    // per call (revocation is still checked per call).
    verifier: createVerificationCache(jwks.verifier),
    revocations: redisSessionRevocations(redis, DEFAULT_REVOCATION_KEY_PREFIX),
    redis,
    closeOnShutdown: (client, close) => clients.push({ name: client, run: async () => close() }),
  });
  let consumer: { stop(): Promise<void> } | undefined;
  const running: Array<{ readonly name: string; readonly work: { stop(): Promise<void> } }> = [];

  await runGrpcService({
    name,
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
        const stopNotices = app.startReadModelNotices?.(nc);
        const started = await app.startConsumer(nc);
        consumer = {
          stop: async () => {
            await started.stop();
            stopNotices?.();
          },
        };
        // Counters and lag (JetStream's num_pending, asked at scrape) on /metrics.
        const jsm = await jetstreamManager(nc);
        const { streamName, consumerName } = config.events;
        watchConsumer(consumerName, {
          stats: () => started.stats(),
          pending: async () => (await jsm.consumers.info(streamName, consumerName)).num_pending,
        });
      }
      // prepare() is retried until it succeeds: each piece of background work starts once.
      if (running.length === 0)
        for (const work of options.background?.(app) ?? [])
          running.push({ name: work.name, work: work.start() });
    },
    shutdownSteps: [
      // A pass in flight finishes its writes (and publishes) before NATS and MongoDB close.
      { name: 'background work', run: () => stopAll(running) },
      // The consumer stops pulling and acks what it finished before the connection drains.
      { name: 'consumer', run: async () => consumer?.stop() },
      { name: 'nats', run: () => nats.close() },
      { name: 'clients', run: async () => void (await Promise.all(clients.map((client) => client.run()))) },
      { name: 'redis', run: async () => void (await redis.quit().catch(() => undefined)) },
      { name: 'mongo', run: () => mongo.close() },
      { name: 'telemetry', run: () => telemetry.shutdown() },
    ],
  });
}

/** Stops every piece of background work, in the order it was started. */
async function stopAll(running: ReadonlyArray<{ work: { stop(): Promise<void> } }>): Promise<void> {
  for (const { work } of running) await work.stop();
}
