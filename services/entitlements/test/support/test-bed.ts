import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { contracts, type EntitlementsServiceClient } from '@tap/contracts';
import { createClient, unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import { buildApp, type EntitlementsApp } from '../../src/app.js';
import type { EventsConfig } from '../../src/config.js';
import { testClock, type TestClock } from './clock.js';
import { testTokens, type TestTokens } from './tokens.js';

export const OPERATOR_TOKEN = 'entitlements-test-operator-token-0123456789';
export const OPERATOR = { authorization: `Operator ${OPERATOR_TOKEN}` };
/** Accepted alongside OPERATOR_TOKEN, as during a rotation of the operator credential. */
export const OPERATOR_TOKEN_PREVIOUS = 'entitlements-test-previous-operator-token-01';

/** One test file's entitlements service: its own database, stream, prefix and consumer name. */
export interface TestBed {
  readonly app: EntitlementsApp;
  readonly client: EntitlementsServiceClient;
  readonly db: Db;
  readonly clock: TestClock;
  readonly tokens: TestTokens;
  readonly events: EventsConfig;
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  setTier(tenantId: string, tierCode: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the service against the run's real FerretDB and NATS, with gRPC bound to an ephemeral
 * loopback port. The consumer is not started here (tests that count events start it).
 */
export async function openTestBed(label: string): Promise<TestBed> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  const mongo = new MongoClient(urls.mongoUrl);
  const db = mongo.db(namespace);
  const clock = testClock();
  const tokens = await testTokens();
  const events: EventsConfig = {
    streamName: namespace.toUpperCase(),
    subjectPrefix: namespace,
    consumerName: namespace,
    duplicateWindowMs: 60_000,
  };
  const app = buildApp({
    config: {
      operatorToken: OPERATOR_TOKEN,
      operatorTokenPrevious: OPERATOR_TOKEN_PREVIOUS,
      events,
      cleanup: { intervalMs: 60_000, appliedEventRetentionMs: 3_600_000 },
    },
    db,
    verifier: tokens.verifier,
    logger: createLogger({ service: 'entitlements-test', level: 'silent' }),
    now: clock.now,
  });
  await app.prepare();
  const port = await app.grpc.listen('127.0.0.1', 0);
  const client = createClient(contracts().entitlements.EntitlementsService, `127.0.0.1:${port}`);
  const nc = await connect({ servers: urls.natsUrl, name: namespace });
  const jsm = await jetstreamManager(nc);
  return {
    app,
    client,
    db,
    clock,
    tokens,
    events,
    nc,
    js: jetstream(nc),
    jsm,
    async setTier(tenantId, tierCode) {
      await unaryCall(client, 'SetTier', { tenantId, tierCode }, OPERATOR);
    },
    async close() {
      client.close();
      await app.grpc.shutdown(500);
      await jsm.streams.delete(events.streamName).catch(() => undefined);
      await nc.drain();
      await db.dropDatabase();
      await mongo.close();
    },
  };
}
