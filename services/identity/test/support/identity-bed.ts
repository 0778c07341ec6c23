import { contracts, type IdentityServiceClient } from '@tap/contracts';
import { createClient, tlsFromPem, unaryCall, type ServiceTls } from '@tap/grpc-kit';
import { clientPerCaller, RPC_ALLOWLIST } from '@tap/service-auth';
import { createRateLimitRedis } from '@tap/ratelimit';
import { createLogger, type Logger } from '@tap/telemetry';
import { infraUrls, testIdentity, testNamespace } from '@tap/testkit';
import { createTokenVerifier, type TokenVerifier } from '@tap/tokens';
import type { Redis } from 'ioredis';
import { MongoClient, type Db } from 'mongodb';
import { buildApp, type IdentityApp, type IdentityDeps } from '../../src/app.js';
import { grantingSeatLedger } from './granting-seat-ledger.js';

export const OPERATOR_TOKEN = 'identity-test-operator-token-0123456789abcdef';
export const TOKENS = {
  issuer: 'https://identity.test',
  audience: 'tap-api',
  keyEncryptionSecret: 'e'.repeat(40),
  keyRetentionMs: 3_600_000,
};
export const GRACE_MS = 30_000;

/**
 * A client of identity at `address` that calls each method as the gateway or, for the operator's
 * RPCs, as the operator (RPC_ALLOWLIST), each over mTLS with its own test certificate.
 */
export async function identityClientAt(address: string): Promise<IdentityServiceClient> {
  const service = contracts().identity.IdentityService;
  const gateway = createClient(service, address, tlsFromPem(await testIdentity('gateway')));
  const operator = createClient(service, address, tlsFromPem(await testIdentity('operator')));
  const client = clientPerCaller(
    [
      ['gateway', gateway],
      ['operator', operator],
    ],
    RPC_ALLOWLIST,
  );
  // close() reaches the gateway's channel through the proxy; the operator's closes with it.
  const close = gateway.close.bind(gateway);
  gateway.close = () => {
    close();
    operator.close();
  };
  return client;
}

/** What a replica may configure differently from the bed's own app (a secret being rotated). */
export interface ReplicaOptions {
  readonly tokens?: Partial<IdentityDeps['config']['tokens']>;
  readonly tokenHashSecret?: string;
  readonly tokenHashSecretPrevious?: string;
  readonly operatorTokenPrevious?: string;
  readonly logger?: Logger;
  /** The domain stream; without it the domain events and audit entries wait in the outboxes. */
  readonly events?: IdentityDeps['events'];
}

/** A clock the test moves; every identity operation reads it. */
export interface TestClock {
  now(): Date;
  advance(ms: number): void;
}

/** Identity over real MongoDB-wire and Redis, on a real gRPC port, with a clock the test controls. */
export interface IdentityBed {
  readonly app: IdentityApp;
  readonly client: IdentityServiceClient;
  readonly db: Db;
  readonly redis: Redis;
  readonly clock: TestClock;
  readonly revocationPrefix: string;
  readonly verifier: TokenVerifier;
  readonly operator: { authorization: string };
  /** A second replica over the same database (key rotation across replicas), not prepared yet. */
  replica(options?: ReplicaOptions): IdentityApp;
  /** Serves `app` on a port of its own; the client talks to it only. */
  serve(app: IdentityApp): Promise<{ client: IdentityServiceClient; close(): Promise<void> }>;
  isRevoked(sessionId: string): Promise<boolean>;
  /** A tenant with an OWNER; returns ids and the password. */
  tenantWithOwner(
    label: string,
  ): Promise<{ tenantId: string; userId: string; email: string; password: string }>;
  close(): Promise<void>;
}

export async function openIdentityBed(label: string, options: ReplicaOptions = {}): Promise<IdentityBed> {
  const namespace = testNamespace(label);
  const mongo = new MongoClient(infraUrls().mongoUrl);
  const db = mongo.db(namespace);
  const redis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 1_000 });
  for (let waited = 0; redis.status !== 'ready' && waited < 10_000; waited += 20)
    await new Promise((r) => setTimeout(r, 20));
  const tls: ServiceTls = tlsFromPem(await testIdentity('identity'));
  let offset = 0;
  const clock: TestClock = { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
  const revocationPrefix = `${namespace}:revoked`;
  const logger = createLogger({ service: 'identity-test', level: 'silent' });
  const seatLedger = grantingSeatLedger();
  const build = (replica: ReplicaOptions = options) =>
    buildApp({
      config: {
        tokens: { ...TOKENS, ...replica.tokens },
        operatorToken: OPERATOR_TOKEN,
        operatorTokenPrevious: replica.operatorTokenPrevious,
        tokenHashSecret: replica.tokenHashSecret,
        tokenHashSecretPrevious: replica.tokenHashSecretPrevious,
        revocationKeyPrefix: revocationPrefix,
        sessions: { refreshReuseGraceMs: GRACE_MS },
      },
      db,
      redis,
      tls,
      logger: replica.logger ?? logger,
      entitlements: { seatLedger },
      ...(replica.events ? { events: replica.events } : {}),
      now: clock.now,
    });
  const app = build();
  await app.prepare();
  const address = `127.0.0.1:${await app.grpc.listen('127.0.0.1', 0)}`;
  const client = await identityClientAt(address);
  const operator = { authorization: `Operator ${OPERATOR_TOKEN}` };
  const verifier = createTokenVerifier({
    issuer: TOKENS.issuer,
    audience: TOKENS.audience,
    refetchCooldownMs: 0,
    now: () => clock.now().getTime(),
    fetchJwks: async () => ({ keys: (await unaryCall(client, 'GetJwks', {})).keys.map((k) => ({ ...k })) }),
  });
  let counter = 0;
  return {
    app,
    client,
    db,
    redis,
    clock,
    revocationPrefix,
    verifier,
    operator,
    replica: build,
    async serve(served) {
      const port = await served.grpc.listen('127.0.0.1', 0);
      const servedClient = await identityClientAt(`127.0.0.1:${port}`);
      return {
        client: servedClient,
        async close() {
          servedClient.close();
          await served.grpc.shutdown(500);
        },
      };
    },
    async isRevoked(sessionId) {
      return (await redis.exists(`${revocationPrefix}:${sessionId}`)) === 1;
    },
    async tenantWithOwner(name) {
      counter += 1;
      const email = `owner-${counter}@${namespace.replace(/_/g, '-')}.example`;
      const password = `correct horse ${counter} battery staple`;
      const created = await unaryCall(
        client,
        'CreateTenantWithOwner',
        {
          name: `${name} ${counter}`,
          slug: '',
          owner: { email, firstName: 'Olive', lastName: 'Owner', password },
        },
        operator,
      );
      return { tenantId: created.tenant!.id, userId: created.owner!.id, email, password };
    },
    async close() {
      client.close();
      await app.grpc.shutdown(500);
      await db.dropDatabase();
      await mongo.close();
      const keys = await redis.keys(`${namespace}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
}

/** The stable error code (`tap-error-code`) of a failed call, or 'OK'. */
export async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    return (error as { reason?: string }).reason ?? String(error);
  }
}
