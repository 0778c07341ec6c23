import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import {
  contracts,
  type DomainEvent,
  type EntitlementsServiceClient,
  type ProductEvent,
} from '@tap/contracts';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { clientPerCaller, RPC_ALLOWLIST } from '@tap/service-auth';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testClock, testIdentity, testNamespace, type TestClock } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import { buildApp, type EntitlementsApp } from '../../src/app.js';
import type { EventsConfig } from '../../src/config.js';

import { testRevocations, testTokens, type TestRevocations, type TestTokens } from '@tap/service-testkit';

/** One test file's entitlements service: its own database, stream, prefix and consumer name. */
export interface TestBed {
  readonly app: EntitlementsApp;
  /** Calls each method as the gateway, SetTier as the operator (RPC_ALLOWLIST), over mTLS. */
  readonly client: EntitlementsServiceClient;
  /** The gateway's client alone (SetTier through it is refused). */
  readonly gatewayClient: EntitlementsServiceClient;
  /** Identity's client (the seat ledger's only caller). */
  readonly identityClient: EntitlementsServiceClient;
  /** gRPC address of the service. */
  readonly address: string;
  /** The logout revocation list the service checks (real Redis). */
  readonly revocations: TestRevocations;
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
export async function openTestBed(
  label: string,
  options: {
    readonly publish?: (event: ProductEvent) => Promise<unknown>;
    readonly publishDomain?: (event: DomainEvent) => Promise<unknown>;
  } = {},
): Promise<TestBed> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  const mongo = new MongoClient(urls.mongoUrl);
  const db = mongo.db(namespace);
  const clock = testClock();
  const tokens = await testTokens();
  const revocations = await testRevocations(namespace);
  const events: EventsConfig = {
    streamName: namespace.toUpperCase(),
    subjectPrefix: namespace,
    consumerName: namespace,
    duplicateWindowMs: 60_000,
  };
  const app = buildApp({
    config: {
      events,
      cleanup: { intervalMs: 60_000, appliedEventRetentionMs: 3_600_000 },
    },
    db,
    verifier: tokens.verifier,
    revocations: revocations.revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger: createLogger({ service: 'entitlements-test', level: 'silent' }),
    now: clock.now,
    ...(options.publish ? { publish: options.publish } : {}),
    ...(options.publishDomain ? { publishDomain: options.publishDomain } : {}),
  });
  await app.prepare();
  const port = await app.grpc.listen('127.0.0.1', 0);
  const address = `127.0.0.1:${port}`;
  const service = contracts().entitlements.EntitlementsService;
  const gatewayClient = createClient(service, address, tlsFromPem(await testIdentity('gateway')));
  const operatorClient = createClient(service, address, tlsFromPem(await testIdentity('operator')));
  const identityClient = createClient(service, address, tlsFromPem(await testIdentity('identity')));
  const client = clientPerCaller(
    [
      ['gateway', gatewayClient],
      ['operator', operatorClient],
    ],
    RPC_ALLOWLIST,
  );
  const nc = await connect({ servers: urls.natsUrl, name: namespace });
  const jsm = await jetstreamManager(nc);
  return {
    app,
    client,
    gatewayClient,
    identityClient,
    address,
    revocations,
    db,
    clock,
    tokens,
    events,
    nc,
    js: jetstream(nc),
    jsm,
    async setTier(tenantId, tierCode) {
      await unaryCall(operatorClient, 'SetTier', { tenantId, tierCode });
    },
    async close() {
      gatewayClient.close();
      operatorClient.close();
      identityClient.close();
      await revocations.close();
      await app.grpc.shutdown(500);
      await jsm.streams.delete(events.streamName).catch(() => undefined);
      await nc.drain();
      await db.dropDatabase();
      await mongo.close();
    },
  };
}
