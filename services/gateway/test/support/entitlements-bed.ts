import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { contracts, type EntitlementsServiceClient } from '@tap/contracts';
import { buildApp as buildEntitlements, type EntitlementsApp } from '@tap/entitlements';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { redisSessionRevocations } from '@tap/service-auth';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { infraUrls, testIdentity, testNamespace } from '@tap/testkit';
import { createTokenSigner, createTokenVerifier, generateSigningKey, importPrivateKey } from '@tap/tokens';
import type { FastifyInstance } from 'fastify';
import { MongoClient } from 'mongodb';
import type { ApiRequestCountReader } from '../../src/api-request-counts.js';
import type { AnswerCache } from '../../src/http/answer-cache.js';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { buildApp } from '../../src/app.js';
import { tierQuotaSource } from '../../src/quota/tier-quota-source.js';
import { createServiceClients, type ServiceClients } from '../../src/clients.js';

const TOKENS = { issuer: 'https://identity.gateway-test', audience: 'tap-api' };
/** Small enough that a test can exceed it cheaply. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** What the gateway answered. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** The gateway over a real entitlements gRPC server (own database) and real jose tokens. */
export interface GatewayBed {
  readonly gateway: FastifyInstance;
  /**
   * One HTTP request over a real loopback socket. (Not `inject()`: under jest on Node 20 it
   * fails to load, since light-my-request requires the ESM-only cookie@2 with `require`.)
   */
  request(
    method: string,
    path: string,
    options?: { headers?: Record<string, string>; body?: string },
  ): Promise<HttpAnswer>;
  /** A direct client of the entitlements server, to arrange usage. */
  readonly entitlements: EntitlementsServiceClient;
  bearer(tenantId: string): Promise<string>;
  /** The limiter key prefix this bed's gateway uses. */
  readonly limiterKeyPrefix: string;
  /** A token as an OAuth client of the tenant would have (metered as API traffic). */
  clientBearer(tenantId: string): Promise<string>;
  setTier(tenantId: string, tierCode: string): Promise<void>;
  /** Replaces what the limiter's count reader answers (undefined: no reader wired). */
  useApiRequestCounts(reader: ApiRequestCountReader | undefined): void;
  close(): Promise<void>;
}

export interface BedOptions {
  /** Meter API requests with a real Redis limiter (unique key prefix) and the real tier quotas. */
  readonly quotas?: boolean;
  /** How long the gateway caches a tenant's tier (default: the production value). */
  readonly tierCacheMs?: number;
  /** Share another bed's limiter keys (several gateway replicas on one Redis). */
  readonly limiterKeyPrefix?: string;
  /** The gateway's answer cache (none: every read asks entitlements). */
  readonly answers?: AnswerCache;
}

export async function openGatewayBed(label: string, options: BedOptions = {}): Promise<GatewayBed> {
  const namespace = testNamespace(label);
  const mongo = new MongoClient(infraUrls().mongoUrl);
  const db = mongo.db(namespace);
  const key = await generateSigningKey();
  const signer = createTokenSigner({
    kid: key.kid,
    privateKey: await importPrivateKey(key.privateJwk),
    ...TOKENS,
  });
  const verifier = createTokenVerifier({ ...TOKENS, fetchJwks: async () => ({ keys: [key.publicJwk] }) });
  const logger = createLogger({ service: 'gateway-test', level: 'silent' });

  // Entitlements checks the revocation list itself (real Redis, this bed's own prefix).
  const revocationRedis = createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 });
  for (let waited = 0; revocationRedis.status !== 'ready' && waited < 10_000; waited += 20)
    await new Promise((resolve) => setTimeout(resolve, 20));
  // The same list for entitlements and the gateway, as in production.
  const revocations = redisSessionRevocations(revocationRedis, `${namespace}:revoked`);
  const service: EntitlementsApp = buildEntitlements({
    config: {},
    db,
    verifier,
    revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger,
  });
  await service.prepare();
  const address = `127.0.0.1:${await service.grpc.listen('127.0.0.1', 0)}`;
  // Identity and adoption are never called by these routes; their channels stay idle.
  const gatewayTls = tlsFromPem(await testIdentity('gateway'));
  const clients: ServiceClients = createServiceClients(
    { identity: '127.0.0.1:9', adoption: '127.0.0.1:9', entitlements: address, notifications: '127.0.0.1:9' },
    gatewayTls,
  );
  let reader: ApiRequestCountReader | undefined;
  const redis = options.quotas
    ? createRateLimitRedis(infraUrls().redisUrl, { commandTimeout: 2_000 })
    : undefined;
  const gateway = await buildApp({
    config: { bodyLimitBytes: BODY_LIMIT_BYTES, trustProxyHops: 0 },
    clients,
    verifier,
    readiness: new Readiness(),
    logger,
    revocations,
    ...(options.answers ? { answers: options.answers } : {}),
    ...(options.quotas
      ? {
          quotas: {
            // A generous Redis timeout: on a loaded CI machine the production 100 ms can pass, and the
            limiter:
              // fail-open fallback would then (correctly, by policy) admit more than these tests count.
              createRateLimiter({
                redis: redis!,
                keyPrefix: options.limiterKeyPrefix ?? namespace,
                timeoutMs: 2_000,
              }),
            source: tierQuotaSource(
              clients.entitlements,
              options.tierCacheMs === undefined ? {} : { ttlMs: options.tierCacheMs },
            ),
          },
        }
      : {
          apiRequestCounts: (tenantId: string, authorization: string) =>
            reader ? reader(tenantId, authorization) : Promise.resolve(undefined),
        }),
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const port = (gateway.server.address() as AddressInfo).port;
  const entitlements = createClient(contracts().entitlements.EntitlementsService, address, gatewayTls);
  // The bed sets tiers as the operator does.
  const operator = createClient(
    contracts().entitlements.EntitlementsService,
    address,
    tlsFromPem(await testIdentity('operator')),
  );
  return {
    gateway,
    entitlements,
    limiterKeyPrefix: options.limiterKeyPrefix ?? namespace,
    async request(method, path, options = {}) {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, {
        method,
        headers: options.headers ?? {},
        ...(options.body === undefined ? {} : { body: options.body }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
      };
    },
    async clientBearer(tenantId) {
      const input = {
        subject: randomUUID(),
        kind: 'client' as const,
        tenantId,
        role: '',
        scopes: [],
        sessionId: randomUUID(),
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
    async bearer(tenantId) {
      const input = {
        subject: randomUUID(),
        kind: 'user' as const,
        tenantId,
        role: 'OWNER',
        scopes: [],
        sessionId: randomUUID(),
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
    async setTier(tenantId, tierCode) {
      await unaryCall(operator, 'SetTier', { tenantId, tierCode });
    },
    useApiRequestCounts(next) {
      reader = next;
    },
    async close() {
      await gateway.close();
      clients.close();
      entitlements.close();
      operator.close();
      await service.grpc.shutdown(500);
      await revocationRedis.quit();
      await db.dropDatabase();
      await mongo.close();
      await redis?.quit();
    },
  };
}
