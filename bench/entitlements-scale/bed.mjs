import { setTimeout as sleep } from 'node:timers/promises';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { contracts } from '@tap/contracts';
import { buildApp as buildEntitlements } from '@tap/entitlements';
import { createEventPublisher, ensureEventStream } from '@tap/events';
import { buildApp as buildGateway, createServiceClients, redisSessionRevocations } from '@tap/gateway';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { testIdentity } from '@tap/testkit';
import { createLogger } from '@tap/telemetry';
import { createTokenSigner, createTokenVerifier, generateSigningKey, importPrivateKey } from '@tap/tokens';
import { MongoClient } from 'mongodb';

const TOKENS = { issuer: 'https://identity.entitlements-bench', audience: 'tap-api' };

/**
 * Entitlements (gRPC, the batched usage consumer) and the gateway built in this process as in
 * production, without identity: a real ES256 key signs the tokens and both verify them with
 * jose. Everything lives under `prefix` and is removed by `close()`.
 * @param {{ mongoUrl: string; natsUrl: string; redisUrl: string }} urls
 * @param {string} prefix
 */
export async function openBed(urls, prefix) {
  const logger = createLogger({ service: 'entitlements-bench', level: 'silent' });
  const key = await generateSigningKey();
  const signer = createTokenSigner({
    kid: key.kid,
    privateKey: await importPrivateKey(key.privateJwk),
    ...TOKENS,
  });
  const verifier = createTokenVerifier({ ...TOKENS, fetchJwks: async () => ({ keys: [key.publicJwk] }) });
  const mongo = new MongoClient(urls.mongoUrl);
  const db = mongo.db(`${prefix}_entitlements`);
  const redis = createRateLimitRedis(urls.redisUrl, { commandTimeout: 1_000 });
  for (let waited = 0; redis.status !== 'ready' && waited < 10_000; waited += 20) await sleep(20);
  const revocations = redisSessionRevocations(redis, `${prefix}:revoked`);
  const events = {
    streamName: prefix.toUpperCase(),
    subjectPrefix: prefix,
    consumerName: prefix,
    duplicateWindowMs: 60_000,
  };
  const entitlements = buildEntitlements({
    config: { events },
    db,
    verifier,
    revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger,
  });
  await entitlements.prepare();
  const address = `127.0.0.1:${await entitlements.grpc.listen('127.0.0.1', 0)}`;
  const operator = createClient(
    contracts().entitlements.EntitlementsService,
    address,
    tlsFromPem(await testIdentity('operator')),
  );
  const nc = await connect({ servers: urls.natsUrl, name: prefix });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  await ensureEventStream(jsm, {
    streamName: events.streamName,
    subjectPrefix: prefix,
    duplicateWindowMs: 60_000,
  });
  const publisher = createEventPublisher(js, { subjectPrefix: prefix });
  const stopNotices = entitlements.startReadModelNotices(nc);

  const gatewayTls = tlsFromPem(await testIdentity('gateway'));
  const clients = createServiceClients(
    { identity: '127.0.0.1:9', adoption: '127.0.0.1:9', entitlements: address },
    gatewayTls,
  );
  const gateway = await buildGateway({
    config: { bodyLimitBytes: 64 * 1024, trustProxyHops: 0 },
    clients,
    verifier,
    readiness: new Readiness(),
    logger,
    revocations,
    auth: { limiter: createRateLimiter({ redis, keyPrefix: `${prefix}:rl` }) },
  });
  await gateway.listen({ host: '127.0.0.1', port: 0 });
  const gatewayAddress = gateway.server.address();
  const gatewayPort = typeof gatewayAddress === 'object' && gatewayAddress ? gatewayAddress.port : 0;

  return {
    db,
    events,
    entitlements,
    publisher,
    nc,
    gatewayPort,
    /** @param {string} tenantId @param {string} tierCode */
    setTier: (tenantId, tierCode) => unaryCall(operator, 'SetTier', { tenantId, tierCode }),
    /** @param {string} tenantId */
    async bearer(tenantId) {
      const input = {
        subject: 'bench-user',
        kind: /** @type {const} */ ('user'),
        tenantId,
        role: 'OWNER',
        scopes: [],
        sessionId: 'bench',
      };
      return `Bearer ${(await signer.sign(input)).token}`;
    },
    async close() {
      stopNotices();
      await gateway.close();
      clients.close();
      operator.close();
      await entitlements.grpc.shutdown(500);
      await jsm.streams.delete(events.streamName).catch(() => undefined);
      await nc.drain();
      await redis.quit();
      await db.dropDatabase();
      await mongo.close();
    },
  };
}
