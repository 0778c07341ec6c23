import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { connect } from '@nats-io/transport-node';
import { createDomainEventPublisher, ensureEventStream } from '@tap/events';
import { tlsFromPem } from '@tap/grpc-kit';
import { testRevocations, testTokens, type TestRevocations } from '@tap/service-testkit';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testIdentity, testIdentityEnv, testNamespace, waitFor } from '@tap/testkit';
import { MongoClient } from 'mongodb';
import { buildApp } from '../src/app.js';
import { domainEvent } from './support/events.js';
import { startReceiver, type Receiver } from './support/receiver.js';

const MAIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));
const EVENTS = 1_000;
const KEY = 'kill-test-webhook-secret-encryption-key-0123456789';

/** The real service process, as `npm run up` and Kubernetes run it. */
function startService(env: Record<string, string>): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [MAIN], { env: { ...process.env, ...env }, stdio: 'ignore' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited };
}

describe('kill -9 of the notifications process during a burst', () => {
  const ns = testNamespace('kill9');
  const urls = infraUrls();
  const mongo = new MongoClient(urls.mongoUrl);
  let receiver: Receiver;
  let nc: NatsConnection;
  let revocations: TestRevocations;
  let pkiDir: string;
  let running: { child: ChildProcess; exited: Promise<number | null> } | undefined;

  beforeAll(async () => {
    receiver = await startReceiver();
    nc = await connect({ servers: urls.natsUrl, name: ns });
    revocations = await testRevocations(ns);
    pkiDir = await mkdtemp(join(tmpdir(), 'tap-kill9-'));
  });

  afterAll(async () => {
    running?.child.kill('SIGKILL');
    await running?.exited;
    const jsm = await jetstreamManager(nc);
    await Promise.allSettled([jsm.streams.delete(`${ns}_EVENTS`), jsm.streams.delete(`${ns}_DOMAIN`)]);
    await nc?.drain();
    await revocations?.close();
    await mongo
      .db(ns)
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
    await receiver?.close();
    await rm(pkiDir, { recursive: true, force: true });
  });

  it('loses no delivery: every event reaches the receiver, each under its own webhook-id', async () => {
    const env = {
      ...(await testIdentityEnv(pkiDir, 'notifications')),
      MONGO_URL: urls.mongoUrl,
      NATS_URL: urls.natsUrl,
      REDIS_URL: urls.redisUrl,
      HOST: '127.0.0.1',
      NOTIFICATIONS_GRPC_PORT: '0',
      NOTIFICATIONS_HTTP_PORT: '0',
      NOTIFICATIONS_MONGO_DB: ns,
      NOTIFICATIONS_CONSUMER: ns,
      EVENTS_STREAM: `${ns}_EVENTS`,
      EVENTS_SUBJECT_PREFIX: `${ns}_events`,
      DOMAIN_EVENTS_STREAM: `${ns}_DOMAIN`,
      DOMAIN_EVENTS_SUBJECT_PREFIX: `${ns}_domain`,
      WEBHOOK_SECRET_ENCRYPTION_KEY: KEY,
      WEBHOOK_DEV_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_POLL_INTERVAL_MS: '20',
      WEBHOOK_TIMEOUT_MS: '1000',
      // A claim held by the killed process is taken again this soon.
      WEBHOOK_CLAIM_LEASE_MS: '2000',
      LOG_LEVEL: 'silent',
    };
    // The endpoint is registered through the same database and sealing key the process uses.
    const tokens = await testTokens();
    const registrar = buildApp({
      config: {
        events: {
          streamName: env.EVENTS_STREAM,
          subjectPrefix: env.EVENTS_SUBJECT_PREFIX,
          consumerName: ns,
          duplicateWindowMs: 60_000,
        },
        domain: { streamName: env.DOMAIN_EVENTS_STREAM, subjectPrefix: env.DOMAIN_EVENTS_SUBJECT_PREFIX },
        webhooks: {
          secretEncryptionKey: KEY,
          devAllowedHosts: ['127.0.0.1'],
          retryScheduleMs: [50],
          timeoutMs: 1_000,
          rotationOverlapMs: 1,
          disableAfterFailingMs: 3 * 24 * 3_600_000,
          maxInFlight: 1,
          maxInFlightPerEndpoint: 1,
          pollIntervalMs: 1_000,
          claimLeaseMs: 2_000,
        },
        feedRetentionMs: 1,
        auditRetentionMs: 1,
        cleanupIntervalMs: 3_600_000,
      },
      db: mongo.db(ns),
      verifier: tokens.verifier,
      revocations: revocations.revocations,
      tls: tlsFromPem(await testIdentity('notifications')),
      logger: createLogger({ service: 'kill9-test', level: 'silent' }),
    });
    await registrar.prepare();
    const tenantId = randomUUID();
    await registrar.ops.createEndpoint({ tenantId, url: `${receiver.url}/burst`, types: ['member.joined'] });

    const jsm = await jetstreamManager(nc);
    await ensureEventStream(jsm, {
      streamName: env.DOMAIN_EVENTS_STREAM,
      subjectPrefix: env.DOMAIN_EVENTS_SUBJECT_PREFIX,
      duplicateWindowMs: 60_000,
    });
    const publisher = createDomainEventPublisher(jetstream(nc), {
      subjectPrefix: env.DOMAIN_EVENTS_SUBJECT_PREFIX,
    });
    const ids: string[] = [];
    for (let i = 0; i < EVENTS; i += 1) {
      const event = domainEvent(tenantId, 'member.joined', { userId: randomUUID() }, { role: 'MEMBER' });
      ids.push(event.id);
      await publisher.publish(event);
    }
    const delivered = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));

    running = startService(env);
    await waitFor('a part of the burst delivered', () => delivered().size >= EVENTS / 5, {
      timeoutMs: 120_000,
    });
    running.child.kill('SIGKILL');
    expect(await running.exited).toBeNull();
    const atKill = delivered().size;
    expect(atKill).toBeLessThan(EVENTS);

    running = startService(env);
    await waitFor('the whole burst delivered', () => delivered().size === EVENTS, { timeoutMs: 170_000 });
    expect([...delivered()].sort()).toEqual([...ids].sort());
    running.child.kill('SIGTERM');
    await running.exited;
    running = undefined;
  }, 300_000);
});
