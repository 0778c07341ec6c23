import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { buildApp as buildAdoption, type AdoptionApp, type DriftWatchJob } from '@tap/adoption';
import {
  contracts,
  type DomainEvent,
  type EntitlementsServiceClient,
  type ProductEvent,
} from '@tap/contracts';
import { buildApp as buildEntitlements } from '@tap/entitlements';
import {
  createDomainEventPublisher,
  createEventPublisher,
  ensureEventStream,
  eventErrors,
  type BatchConsumer,
} from '@tap/events';
import {
  buildApp as buildGateway,
  createAnswerCache,
  createServiceClients,
  listenForAnswerChanges,
  redisSessionRevocations,
  redisSsoStateStore,
} from '@tap/gateway';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, unaryCall } from '@tap/grpc-kit';
import { identityClientAt, tlsOf } from './service-tls.js';
import { buildApp as buildIdentity, type IdentityApp } from '@tap/identity';
import { buildApp as buildNotifications, type NotificationsApp } from '@tap/notifications';
import { Readiness } from '@tap/runtime';
import { identityJwksFetcher, redisSessionRevocations as revocationReader } from '@tap/service-auth';
import { createLogger, type Logger } from '@tap/telemetry';
import { infraUrls, startSmtpSink, testIdentityEnv, testNamespace, type SmtpSink } from '@tap/testkit';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { createTokenVerifier, createVerificationCache } from '@tap/tokens';
import type { FastifyInstance } from 'fastify';
import { MongoClient, type Db } from 'mongodb';
import { waitFor } from './wait-for.js';

export { identityClientAt, tlsOf } from './service-tls.js';

export const OPERATOR_TOKEN = 'system-test-operator-token-0123456789abcdef';
export const SYSTEM_TOKENS = { issuer: 'https://identity.system-test', audience: 'tap-api' };
/** Identity's key-encryption secret here; tests that forge tokens unseal its key with it. */
export const SYSTEM_KEY_ENCRYPTION_SECRET = 'k'.repeat(40);
const TOKENS = SYSTEM_TOKENS;
/** The one origin the gateway's /auth/v2 allowlist holds here (the first-party web app). */
export const SYSTEM_ORIGIN = 'https://app.system-test.example';

export interface HttpResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

export interface System {
  readonly gateway: FastifyInstance;
  /** The adoption service (tests run drift-watch passes through it). */
  readonly adoption: AdoptionApp;
  /** The identity service (tests run its seat reconciliation) and its database. */
  readonly identity: IdentityApp;
  readonly identityDb: Db;
  /** Entitlements' database (tests look at the seat ledger). */
  readonly entitlementsDb: Db;
  /** The notifications service (webhooks, events feed, audit log), its consumer and worker running. */
  readonly notifications: NotificationsApp;
  /** Notifications' database (tests read the audit log it wrote). */
  readonly notificationsDb: Db;
  /** The gateway's base URL on a real loopback socket (e.g. http://127.0.0.1:PORT). */
  readonly baseUrl: string;
  /** One HTTP request to the gateway; `body` objects are sent as JSON. */
  http(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: unknown; redirect?: 'follow' | 'manual' },
  ): Promise<HttpResponse>;
  readonly namespace: string;
  readonly events: { readonly streamName: string; readonly subjectPrefix: string };
  /**
   * This system's domain stream: identity (member.*, oauth_client.*, audit entries) and
   * entitlements (tier.changed, usage thresholds) publish there through their outboxes.
   */
  readonly domain: { readonly streamName: string; readonly subjectPrefix: string };
  /** The services' gRPC addresses, for the operator CLI and direct operator calls. */
  readonly addresses: {
    readonly identity: string;
    readonly adoption: string;
    readonly entitlements: string;
    readonly notifications: string;
  };
  /** GRPC_TLS_* of the operator's certificate (files in a temp directory), for spawning the CLI. */
  readonly operatorEnv: Readonly<Record<string, string>>;
  /** Redis keys of this system (revocation marks, auth-endpoint limits) start with this. */
  readonly redisPrefix: string;
  /** The SMTP sink identity mails magic links to (a real SMTP server on loopback). */
  readonly mail: SmtpSink;
  createTenant(name: string): Promise<string>;
  setTier(tenantId: string, tierCode: string): Promise<void>;
  token(tenantId: string, role?: string, scopes?: string[]): Promise<string>;
  publish(event: ProductEvent): Promise<unknown>;
  /** Publishes a domain event (as a producer's outbox relay does) on this system's domain stream. */
  publishDomain(event: DomainEvent): Promise<unknown>;
  /** Shuts identity's gRPC server down (an identity outage); the rest keeps running. */
  stopIdentity(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The four services built in this process, each on its own real gRPC port and its own database
 * in the shared Mongo-wire server, the adoption consumer on its own stream, and the gateway
 * as a Fastify instance (tests call it with inject()).
 */
export interface SystemOptions {
  /** Proxy hops the gateway trusts (1 lets a test choose its client address with X-Forwarded-For). */
  readonly trustProxyHops?: number;
  /** Identity's refresh-token grace window (default 30 s). */
  readonly refreshReuseGraceMs?: number;
  /** Adoption's clock (recomputes, consumer, drift watch); real time when absent. */
  readonly now?: () => Date;
  /** Starts adoption's scheduled drift watch at this interval; not started when absent. */
  readonly driftWatchIntervalMs?: number;
  /** Start entitlements' usage consumer too (product events then move the usage counters and history). */
  readonly countUsage?: boolean;
  /** The session cookies' parent domain (COOKIE_DOMAIN); host-only cookies when absent. */
  readonly cookieDomain?: string;
  /** The gateway's port (an SSO test registers its callback URL with the providers first); free when absent. */
  readonly gatewayPort?: number;
  /** OpenID Providers for SSO (docs/browser-sessions.md); SSO is off when absent. */
  readonly ssoProviders?: readonly { key: string; issuer: string; clientId: string; clientSecret: string }[];
  /** The gateway's logger (a test that reads the gateway's log lines passes one); silent when absent. */
  readonly gatewayLogger?: Logger;
  /** How long the gateway reuses a read answer (GATEWAY_ANSWER_REUSE_MS); 1 s when absent. */
  readonly answerReuseMs?: number;
  /** How often the verifiers refetch identity's key set (JWKS_REFRESH_INTERVAL_MS); 60 s when absent. */
  readonly jwksRefreshIntervalMs?: number;
  /** The gateway's event streams (GATEWAY_EVENT_STREAM_*); SYSTEM_EVENT_STREAMS when absent. */
  readonly eventStreams?: {
    readonly perTenant: number;
    readonly pollMs: number;
    readonly heartbeatMs: number;
  };
}

/**
 * Loopback receivers get deliveries (WEBHOOK_DEV_ALLOWED_HOSTS), retried on a schedule of
 * milliseconds rather than of hours.
 */
export const SYSTEM_WEBHOOK_RETRY_SCHEDULE_MS = [200, 200, 200];
/** Streams poll and beat often here, so that a test sees an event or a heartbeat soon. */
export const SYSTEM_EVENT_STREAMS = { perTenant: 3, pollMs: 100, heartbeatMs: 500 };

export async function startSystem(label: string, options: SystemOptions = {}): Promise<System> {
  const urls = infraUrls();
  const namespace = testNamespace(label);
  // Fail-fast clients, as in production: identity writes revocations, the gateway reads them.
  const redis = createRateLimitRedis(urls.redisUrl, { commandTimeout: 1_000 });
  const redisPrefix = `${namespace}:`;
  // Without an offline queue, commands sent before the connection is up fail: wait for it.
  await waitFor(async () => (redis.status === 'ready' ? true : undefined), 10_000, 20);
  const logger = createLogger({ service: 'system-test', level: 'silent' });
  const mail = await startSmtpSink();
  const mongo = new MongoClient(urls.mongoUrl);
  const databases = ['identity', 'adoption', 'entitlements', 'notifications'].map(
    (name) => `${namespace}_${name}`,
  );
  const [identityDb, adoptionDb, entitlementsDb, notificationsDb] = databases.map((name) => mongo.db(name));

  // Identity asks entitlements for seats; entitlements starts after it (it verifies tokens
  // against identity's key set), so identity reaches its client through this late binding.
  const late: { entitlements?: EntitlementsServiceClient } = {};
  const nc = await connect({ servers: urls.natsUrl });
  const domain = { streamName: `${namespace.toUpperCase()}_DOMAIN`, subjectPrefix: `${namespace}_domain` };
  await ensureEventStream(await jetstreamManager(nc), { ...domain, duplicateWindowMs: 60_000 });
  const domainPublisher = createDomainEventPublisher(jetstream(nc), { subjectPrefix: domain.subjectPrefix });
  const identity = buildIdentity({
    events: {
      publish: (event) => domainPublisher.publish(event),
      isRefused: (error) => eventErrors.is(error, 'EVENT_INVALID'),
    },
    entitlements: () => {
      if (!late.entitlements) throw new Error('entitlements is not started yet');
      return late.entitlements;
    },
    config: {
      tokens: { ...TOKENS, keyEncryptionSecret: SYSTEM_KEY_ENCRYPTION_SECRET, keyRetentionMs: 86_400_000 },
      operatorToken: OPERATOR_TOKEN,
      revocationKeyPrefix: `${redisPrefix}revoked`,
      ...(options.refreshReuseGraceMs
        ? { sessions: { refreshReuseGraceMs: options.refreshReuseGraceMs } }
        : {}),
      mail: {
        smtpUrl: mail.url,
        from: 'TAP <no-reply@system-test.example>',
        magicLinkUrl: `${SYSTEM_ORIGIN}/auth/magic-link`,
      },
    },
    db: identityDb!,
    redis,
    tls: await tlsOf('identity'),
    logger,
  });
  await identity.prepare();
  const identityAddress = `127.0.0.1:${await identity.grpc.listen('127.0.0.1', 0)}`;
  const gatewayTls = await tlsOf('gateway');
  // One verifier for the three services here; it fetches the key set with the gateway's certificate.
  const jwks = identityJwksFetcher(identityAddress, gatewayTls);
  // Every service reads the revocation marks identity writes.
  const revocations = revocationReader(redis, `${redisPrefix}revoked`);
  const verifier = createTokenVerifier({
    ...TOKENS,
    fetchJwks: jwks.fetch,
    ...(options.jwksRefreshIntervalMs ? { jwksRefreshIntervalMs: options.jwksRefreshIntervalMs } : {}),
  });

  const events = { streamName: namespace.toUpperCase(), subjectPrefix: namespace };
  const publisher = createEventPublisher(jetstream(nc), { subjectPrefix: events.subjectPrefix });
  // Its change notices on this system's prefix, where the gateway listens (its usage consumer runs
  // only with countUsage).
  const entitlementsEvents = { streamName: namespace.toUpperCase(), subjectPrefix: namespace };
  const entitlements = buildEntitlements({
    config: {
      events: { ...entitlementsEvents, consumerName: `${namespace}_e`, duplicateWindowMs: 60_000 },
    },
    db: entitlementsDb!,
    verifier,
    revocations,
    tls: await tlsOf('entitlements'),
    logger,
    // Tier changes reach adoption as tier.changed, as in the processes.
    publish: (event) => publisher.publish(event),
    publishDomain: (event) => domainPublisher.publish(event),
  });
  await entitlements.prepare();
  const entitlementsAddress = `127.0.0.1:${await entitlements.grpc.listen('127.0.0.1', 0)}`;
  late.entitlements = createClient(
    contracts().entitlements.EntitlementsService,
    entitlementsAddress,
    await tlsOf('identity'),
  );

  const adoptionTls = await tlsOf('adoption');
  const operatorEntitlements = createClient(
    contracts().entitlements.EntitlementsService,
    entitlementsAddress,
    await tlsOf('operator'),
  );
  const adoption = buildAdoption({
    config: {
      events: { ...events, consumerName: namespace, duplicateWindowMs: 60_000 },
      // The domain stream notifications consumes: adoption's outbound events go there.
      domain: { streamName: `${events.streamName}_DOMAIN`, subjectPrefix: `${namespace}_domain` },
      driftWatch: {
        intervalMs: options.driftWatchIntervalMs ?? 60_000,
        rescanMs: 15 * 60_000,
        leaseMs: 60_000,
      },
    },
    db: adoptionDb!,
    verifier,
    revocations,
    tls: adoptionTls,
    publish: (event) => publisher.publish(event),
    publishDomain: (event) =>
      createDomainEventPublisher(jetstream(nc), { subjectPrefix: `${namespace}_domain` }).publish(event),
    logger,
    ...(options.now ? { now: options.now } : {}),
  });
  await adoption.prepare();
  const consumer: BatchConsumer = await adoption.startConsumer(nc);
  const usageConsumer = options.countUsage ? await entitlements.startConsumer(nc) : undefined;
  // The change notices, as the processes send them: the gateway's answer cache hears them.
  const stopNotices = [adoption.startReadModelNotices(nc), entitlements.startReadModelNotices(nc)];
  const driftWatch: DriftWatchJob | undefined =
    options.driftWatchIntervalMs === undefined ? undefined : adoption.startDriftWatch();
  const adoptionAddress = `127.0.0.1:${await adoption.grpc.listen('127.0.0.1', 0)}`;

  // Notifications as its process runs it: both consumers (adoption's milestone.completed on the
  // product stream, the domain stream), the delivery worker, its gRPC port.
  const notifications = buildNotifications({
    config: {
      events: { ...events, consumerName: `${namespace}_n`, duplicateWindowMs: 60_000 },
      domain,
      webhooks: {
        secretEncryptionKey: 'system-test-webhook-secret-encryption-key-0123456789',
        devAllowedHosts: ['127.0.0.1'],
        retryScheduleMs: SYSTEM_WEBHOOK_RETRY_SCHEDULE_MS,
        timeoutMs: 2_000,
        rotationOverlapMs: 86_400_000,
        disableAfterFailingMs: 3 * 86_400_000,
        maxInFlight: 16,
        maxInFlightPerEndpoint: 4,
        pollIntervalMs: 50,
        claimLeaseMs: 60_000,
      },
      feedRetentionMs: 30 * 86_400_000,
      auditRetentionMs: 400 * 86_400_000,
      cleanupIntervalMs: 3_600_000,
    },
    db: notificationsDb!,
    verifier,
    revocations,
    tls: await tlsOf('notifications'),
    logger,
  });
  await notifications.prepare();
  const notificationsConsumer = await notifications.startConsumer(nc);
  const deliveries = notifications.startDeliveries();
  const notificationsAddress = `127.0.0.1:${await notifications.grpc.listen('127.0.0.1', 0)}`;

  const clients = createServiceClients(
    {
      identity: identityAddress,
      adoption: adoptionAddress,
      entitlements: entitlementsAddress,
      notifications: notificationsAddress,
    },
    gatewayTls,
  );
  // As main.ts wires it: adoption's read answers kept per tenant, dropped on change notices.
  const answers = createAnswerCache(
    options.answerReuseMs === undefined ? {} : { reuseMs: options.answerReuseMs },
  );
  const stopAnswerNotices = listenForAnswerChanges(nc, events.subjectPrefix, answers);
  const gateway = await buildGateway({
    answers,
    config: {
      bodyLimitBytes: 64 * 1024,
      trustProxyHops: options.trustProxyHops ?? 0,
      eventStreams: options.eventStreams ?? SYSTEM_EVENT_STREAMS,
      browser: {
        allowedOrigins: [SYSTEM_ORIGIN],
        cookieDomain: options.cookieDomain,
        sso: {
          appUrl: SYSTEM_ORIGIN,
          publicApiUrl: `http://127.0.0.1:${options.gatewayPort ?? 0}/api/v1`,
          providers: options.ssoProviders ?? [],
        },
      },
    },
    clients,
    // As main.ts wires it: tokens verified once, revocation checked on every request.
    verifier: createVerificationCache(verifier),
    readiness: new Readiness(),
    logger: options.gatewayLogger ?? logger,
    revocations: redisSessionRevocations(redis, `${redisPrefix}revoked`),
    auth: {
      // The client's own command timeout: a test machine busy with argon2 can hold a reply past
      // the production 100 ms, and a decision that fell back to per-process counts would make
      // the tests of exact limits under concurrency depend on load.
      limiter: createRateLimiter({ redis, keyPrefix: `${redisPrefix}rl`, timeoutMs: 1_000 }),
      ssoStates: redisSsoStateStore(redis, `${redisPrefix}sso`),
    },
  });
  // A real socket rather than inject(): the request goes through Node's HTTP stack as in production.
  await gateway.listen({ host: '127.0.0.1', port: options.gatewayPort ?? 0 });
  const address = gateway.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
  const identityClient = await identityClientAt(identityAddress);
  const pkiDir = await mkdtemp(join(tmpdir(), 'tap-system-pki-'));
  const operatorEnv = await testIdentityEnv(pkiDir, 'operator');
  let identityStopped: Promise<void> | undefined;
  const stopIdentity = (): Promise<void> => (identityStopped ??= identity.grpc.shutdown(500));

  return {
    gateway,
    adoption,
    identity,
    identityDb: identityDb!,
    entitlementsDb: entitlementsDb!,
    notifications,
    notificationsDb: notificationsDb!,
    baseUrl,
    async http(method, path, options = {}) {
      const isJson = options.body !== undefined && typeof options.body !== 'string';
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { ...(isJson ? { 'content-type': 'application/json' } : {}), ...options.headers },
        ...(options.body === undefined
          ? {}
          : { body: isJson ? JSON.stringify(options.body) : (options.body as string) }),
        signal: AbortSignal.timeout(10_000),
        ...(options.redirect ? { redirect: options.redirect } : {}),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON; keep the text
      }
      return { status: response.status, headers: response.headers, body };
    },
    namespace,
    domain,
    events,
    addresses: {
      identity: identityAddress,
      adoption: adoptionAddress,
      entitlements: entitlementsAddress,
      notifications: notificationsAddress,
    },
    redisPrefix,
    operatorEnv,
    mail,
    async createTenant(name) {
      const tenant = await unaryCall(identityClient, 'CreateTenant', { name, slug: '' }, operator);
      return tenant.id;
    },
    // As the operator does; returns once adoption's consumer has applied the tier.changed.
    async setTier(tenantId, tierCode) {
      await unaryCall(operatorEntitlements, 'SetTier', { tenantId, tierCode });
      const aggregates = adoptionDb!.collection<{ _id: string; tier?: { tierCode?: string } | null }>(
        'aggregates',
      );
      await waitFor(async () => {
        const doc = await aggregates.findOne({ _id: tenantId }, { projection: { tier: 1 } });
        return doc?.tier?.tierCode === tierCode ? true : undefined;
      }, 60_000);
    },
    async token(tenantId, role = 'OWNER', scopes = []) {
      const issued = await unaryCall(
        identityClient,
        'IssueAccessToken',
        { tenantId, role, scopes, subject: '' },
        operator,
      );
      return issued.accessToken;
    },
    publish: (event) => publisher.publish(event),
    publishDomain: (event) => domainPublisher.publish(event),
    stopIdentity,
    async stop() {
      await gateway.close();
      stopAnswerNotices();
      for (const stop of stopNotices) stop();
      await driftWatch?.stop();
      await consumer.stop();
      await usageConsumer?.stop();
      await notificationsConsumer.stop();
      await deliveries.stop();
      verifier.close();
      await Promise.all([
        stopIdentity(),
        entitlements.grpc.shutdown(500),
        adoption.grpc.shutdown(500),
        notifications.grpc.shutdown(500),
      ]);
      clients.close();
      identityClient.close();
      late.entitlements?.close();
      operatorEntitlements.close();
      jwks.close();
      await rm(pkiDir, { recursive: true, force: true });
      await jetstreamManager(nc)
        .then((jsm) => jsm.streams.delete(domain.streamName))
        .catch(() => undefined);
      await nc.drain();
      await Promise.all(databases.map((name) => mongo.db(name).dropDatabase()));
      await mongo.close();
      const keys = await redis.keys(`${redisPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
      await mail.stop();
    },
  };
}
