import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { buildApp as buildEntitlements, type EntitlementsApp } from '@tap/entitlements';
import {
  contracts,
  type AdoptionServiceClient,
  type EntitlementsServiceClient,
  type ProductEvent,
} from '@tap/contracts';
import {
  createDomainEventPublisher,
  createEventPublisher,
  ensureEventStream,
  type BatchConsumer,
  type DomainEventPublisher,
  type EventPublisher,
} from '@tap/events';
import type { DomainEvent } from '@tap/contracts';
import type { OutboundEvent } from '../../src/domain/index.js';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testClock, testIdentity, testNamespace, waitFor, type TestClock } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import { buildApp, type AdoptionApp } from '../../src/app.js';
import type { AdoptionConfig, DriftWatchConfig } from '../../src/config.js';

import { testRevocations, testTokens, type TestRevocations, type TestTokens } from '@tap/service-testkit';

const logger = createLogger({ service: 'adoption-test', level: 'silent' });

/** One test file's adoption service with a real entitlements server, its own database and stream. */
export interface TestBed {
  readonly app: AdoptionApp;
  readonly client: AdoptionServiceClient;
  readonly db: Db;
  readonly clock: TestClock;
  readonly tokens: TestTokens;
  /** The logout revocation list both services check (real Redis). */
  readonly revocations: TestRevocations;
  readonly events: AdoptionConfig['events'];
  /** The bed's own domain stream, where the apps relay outbound events. */
  readonly domain: AdoptionConfig['domain'];
  /** Every event stored in the bed's domain stream, oldest first (each stored once per id). */
  domainEvents(): Promise<DomainEvent[]>;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly publisher: EventPublisher;
  /** The bed's NATS connection (read-model notices ride on it). */
  readonly nc: NatsConnection;
  /**
   * Another adoption replica on the same database and stream (its own gRPC server unused), its
   * read-model notices on the bed's connection like the bed's app.
   */
  replica(options?: ReadModelOptions): AdoptionApp;
  /** Starts a durable consumer of `app` (default: the bed's) and stops it on close. */
  startConsumer(app?: AdoptionApp): Promise<BatchConsumer>;
  setTier(tenantId: string, tierCode: string): Promise<void>;
  /** Call settings for a user of `tenantId` with `role` (a real signed token). */
  as(tenantId: string, role?: string): Promise<{ authorization: string }>;
  close(): Promise<void>;
}

/** The read-model settings of an adoption app (AdoptionDeps). */
export interface ReadModelOptions {
  readonly readModelTtlMs?: number;
  readonly readModelMaxTenants?: number;
}

/** What a test may change about the bed's adoption apps. */
export interface TestBedOptions extends ReadModelOptions {
  /** How the apps publish: by default straight through the bed's real publisher. */
  readonly publish?: (event: ProductEvent, publisher: EventPublisher) => Promise<unknown>;
  /** How the apps publish outbound events: by default straight through the bed's domain publisher. */
  readonly publishDomain?: (event: OutboundEvent, publisher: DomainEventPublisher) => Promise<unknown>;
  /**
   * Where entitlements keeps its database: by default the run's shared server; a test that pauses
   * entitlements' database (SIGSTOP) passes a server of its own, so no other suite is held up.
   */
  readonly entitlementsMongoUrl?: string;
}

/** Builds adoption and entitlements in this process against the run's real FerretDB and NATS. */
export async function openTestBed(
  label: string,
  driftWatch?: DriftWatchConfig,
  options: TestBedOptions = {},
): Promise<TestBed> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  // Command events on: a test may count what reaches the database (read-model.test.ts).
  const mongo = new MongoClient(urls.mongoUrl, { monitorCommands: true });
  const db = mongo.db(`${namespace}_adoption`);
  const entitlementsMongo = options.entitlementsMongoUrl
    ? new MongoClient(options.entitlementsMongoUrl)
    : mongo;
  const entitlementsDb = entitlementsMongo.db(`${namespace}_entitlements`);
  const clock = testClock();
  const tokens = await testTokens();
  const revocations = await testRevocations(namespace);
  const nc: NatsConnection = await connect({ servers: urls.natsUrl, name: namespace });
  const js = jetstream(nc);
  const events = {
    streamName: namespace.toUpperCase(),
    subjectPrefix: namespace,
    consumerName: namespace,
    duplicateWindowMs: 60_000,
  };
  const publisher = createEventPublisher(js, { subjectPrefix: namespace });
  const domain = { streamName: `${namespace.toUpperCase()}_DOMAIN`, subjectPrefix: `${namespace}_domain` };
  const domainPublisher = createDomainEventPublisher(js, { subjectPrefix: domain.subjectPrefix });
  // The stream exists from the start, so a tier set before the consumer starts is kept for it.
  await ensureEventStream(await jetstreamManager(nc), events);
  await ensureEventStream(await jetstreamManager(nc), {
    ...domain,
    duplicateWindowMs: events.duplicateWindowMs,
  });
  const entitlements: EntitlementsApp = buildEntitlements({
    config: {},
    db: entitlementsDb,
    verifier: tokens.verifier,
    revocations: revocations.revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger,
    // Tier changes reach adoption as they do in production: tier.changed on the bed's stream.
    publish: (event) => publisher.publish(event),
  });
  await entitlements.prepare();
  const entitlementsAddress = `127.0.0.1:${await entitlements.grpc.listen('127.0.0.1', 0)}`;
  const adoptionTls = tlsFromPem(await testIdentity('adoption'));
  // The bed sets tiers as the operator does.
  const operatorEntitlements: EntitlementsServiceClient = createClient(
    contracts().entitlements.EntitlementsService,
    entitlementsAddress,
    tlsFromPem(await testIdentity('operator')),
  );
  const noticeStops: (() => void)[] = [];
  // As main.ts does: every app publishes its writes and hears the others' (the read model).
  const withNotices = (built: AdoptionApp): AdoptionApp => {
    noticeStops.push(built.startReadModelNotices(nc));
    return built;
  };
  const build = (readModel: ReadModelOptions = options) =>
    buildApp({
      config: { events, domain, ...(driftWatch ? { driftWatch } : {}) },
      db,
      verifier: tokens.verifier,
      revocations: revocations.revocations,
      tls: adoptionTls,
      publish: (event) => (options.publish ? options.publish(event, publisher) : publisher.publish(event)),
      publishDomain: (event) =>
        options.publishDomain
          ? options.publishDomain(event, domainPublisher)
          : domainPublisher.publish(event),
      logger,
      now: clock.now,
      ...(readModel.readModelTtlMs === undefined ? {} : { readModelTtlMs: readModel.readModelTtlMs }),
      ...(readModel.readModelMaxTenants === undefined
        ? {}
        : { readModelMaxTenants: readModel.readModelMaxTenants }),
    });
  const app = withNotices(build());
  await app.prepare();
  // Tests call adoption as the gateway does.
  const client = createClient(
    contracts().adoption.AdoptionService,
    `127.0.0.1:${await app.grpc.listen('127.0.0.1', 0)}`,
    tlsFromPem(await testIdentity('gateway')),
  );
  const consumers: BatchConsumer[] = [];
  const running = new Set<BatchConsumer>();
  return {
    app,
    client,
    db,
    clock,
    tokens,
    revocations,
    events,
    domain,
    async domainEvents() {
      const jsm = await jetstreamManager(nc);
      const info = await jsm.streams.info(domain.streamName);
      const found: DomainEvent[] = [];
      for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
        const msg = await jsm.streams.getMessage(domain.streamName, { seq }).catch(() => null);
        if (msg) found.push(msg.json<DomainEvent>());
      }
      return found;
    },
    js,
    jsm: await jetstreamManager(nc),
    publisher,
    nc,
    replica: (readModel) => withNotices(build(readModel ?? {})),
    async startConsumer(which = app) {
      // Short redelivery backoff: tests that fail a delivery on purpose should not wait a second.
      const consumer = await which.startConsumer(nc, { retryBackoff: { initialMs: 50, maxMs: 200 } });
      running.add(consumer);
      consumers.push(consumer);
      return {
        ...consumer,
        stop: async () => {
          running.delete(consumer);
          await consumer.stop();
        },
      };
    },
    // As the operator does; entitlements publishes the tier.changed right after it answers. This
    // waits until it is in the stream (when there is one: a test may have deleted it), and with
    // a consumer running until adoption has applied it, as a person would see it.
    async setTier(tenantId, tierCode) {
      await unaryCall(operatorEntitlements, 'SetTier', { tenantId, tierCode });
      const jsm = await jetstreamManager(nc);
      if (
        await jsm.streams.info(events.streamName).then(
          () => true,
          () => false,
        )
      ) {
        const marks = entitlementsDb.collection<{ _id: string }>('tier_announcements');
        await waitFor('entitlements to publish the tier.changed', async () => {
          return (await marks.countDocuments({ _id: tenantId })) === 0;
        });
      }
      if (running.size === 0) return;
      const aggregates = db.collection<{ _id: string; tier?: { tierCode?: string } | null }>('aggregates');
      await waitFor(`adoption to apply ${tierCode} for ${tenantId}`, async () => {
        const doc = await aggregates.findOne({ _id: tenantId }, { projection: { tier: 1 } });
        return doc?.tier?.tierCode === tierCode;
      });
    },
    async as(tenantId, role) {
      return { authorization: await tokens.bearer(tenantId, role) };
    },
    async close() {
      for (const consumer of consumers) await consumer.stop();
      for (const stop of noticeStops) stop();
      client.close();
      operatorEntitlements.close();
      await revocations.close();
      await Promise.all([app.grpc.shutdown(500), entitlements.grpc.shutdown(500)]);
      const jsm = await jetstreamManager(nc);
      await jsm.streams.delete(events.streamName).catch(() => undefined);
      await jsm.streams.delete(domain.streamName).catch(() => undefined);
      await nc.drain();
      await Promise.all([db.dropDatabase(), entitlementsDb.dropDatabase()]);
      await mongo.close();
      if (entitlementsMongo !== mongo) await entitlementsMongo.close();
    },
  };
}
