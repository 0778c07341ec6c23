import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { tlsFromPem } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testIdentity, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import { testRevocations, testTokens, type TestRevocations, type TestTokens } from '@tap/service-testkit';
import { buildApp, type NotificationsApp } from '../../src/app.js';
import type { NotificationsConfig } from '../../src/config.js';

export type BedConfig = Pick<
  NotificationsConfig,
  'events' | 'domain' | 'webhooks' | 'feedRetentionMs' | 'auditRetentionMs' | 'cleanupIntervalMs'
> &
  Partial<Pick<NotificationsConfig, 'deliveryLogRetentionMs' | 'mail'>>;

/** One test file's service: its own database, streams, prefixes and consumer; its worker and consumer running. */
export interface TestBed {
  readonly app: NotificationsApp;
  readonly db: Db;
  readonly config: BedConfig;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly tokens: TestTokens;
  readonly revocations: TestRevocations;
  /** gRPC address of the service (listening on loopback, port 0). */
  readonly address: string;
  close(): Promise<void>;
}

export async function openTestBed(
  label: string,
  webhooks: Partial<BedConfig['webhooks']> = {},
  extra: Partial<Pick<BedConfig, 'deliveryLogRetentionMs' | 'mail'>> = {},
): Promise<TestBed> {
  const urls = infraUrls();
  const ns = testNamespace(label);
  const mongo = new MongoClient(urls.mongoUrl);
  const db = mongo.db(ns);
  const config: BedConfig = {
    events: {
      streamName: `${ns}_EVENTS`,
      subjectPrefix: `${ns}_events`,
      consumerName: ns,
      duplicateWindowMs: 60_000,
    },
    domain: { streamName: `${ns}_DOMAIN`, subjectPrefix: `${ns}_domain` },
    webhooks: {
      secretEncryptionKey: 'test-webhook-secret-encryption-key-0123456789',
      devAllowedHosts: ['127.0.0.1'],
      retryScheduleMs: [50, 50, 50],
      timeoutMs: 2_000,
      rotationOverlapMs: 3_600_000,
      disableAfterFailingMs: 3 * 24 * 3_600_000,
      maxInFlight: 16,
      maxInFlightPerEndpoint: 2,
      pollIntervalMs: 20,
      claimLeaseMs: 60_000,
      ...webhooks,
    },
    feedRetentionMs: 30 * 24 * 3_600_000,
    auditRetentionMs: 400 * 24 * 3_600_000,
    cleanupIntervalMs: 3_600_000,
    ...extra,
  };
  const tokens = await testTokens();
  const revocations = await testRevocations(ns);
  const app = buildApp({
    config,
    db,
    verifier: tokens.verifier,
    revocations: revocations.revocations,
    tls: tlsFromPem(await testIdentity('notifications')),
    logger: createLogger({ service: 'notifications-test', level: 'silent' }),
  });
  await app.prepare();
  const port = await app.grpc.listen('127.0.0.1', 0);
  const nc = await connect({ servers: urls.natsUrl, name: ns });
  const consumer = await app.startConsumer(nc);
  const worker = app.startDeliveries();
  const jsm = await jetstreamManager(nc);
  return {
    app,
    db,
    config,
    nc,
    js: jetstream(nc),
    jsm,
    tokens,
    revocations,
    address: `127.0.0.1:${port}`,
    async close() {
      await app.grpc.shutdown(500);
      await revocations.close();
      await worker.stop();
      await consumer.stop();
      await Promise.allSettled([
        jsm.streams.delete(config.events.streamName),
        jsm.streams.delete(config.domain.streamName),
      ]);
      await nc.drain();
      await db.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
}
