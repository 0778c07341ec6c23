import { setTimeout as sleep } from 'node:timers/promises';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { contracts } from '@tap/contracts';
import { buildApp as buildEntitlements } from '@tap/entitlements';
import { createEventPublisher, ensureEventStream } from '@tap/events';
import { redisSessionRevocations } from '@tap/gateway';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { createRateLimitRedis } from '@tap/ratelimit';
import { testIdentity } from '@tap/testkit';
import { createLogger } from '@tap/telemetry';
import { createTokenVerifier, generateSigningKey } from '@tap/tokens';
import { MongoClient } from 'mongodb';

const TOKENS = { issuer: 'https://identity.entitlements-bench', audience: 'tap-api' };

/**
 * Entitlements (gRPC, the batched usage consumer) built in this process as in production, without
 * identity (a real ES256 key set for its verifier). Everything lives under `prefix` and is removed
 * by `close()`.
 * @param {{ mongoUrl: string; natsUrl: string; redisUrl: string }} urls
 * @param {string} prefix
 */
export async function openBed(urls, prefix) {
  const logger = createLogger({ service: 'entitlements-bench', level: 'silent' });
  const key = await generateSigningKey();
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

  return {
    db,
    events,
    entitlements,
    publisher,
    nc,
    /** @param {string} tenantId @param {string} tierCode */
    setTier: (tenantId, tierCode) => unaryCall(operator, 'SetTier', { tenantId, tierCode }),
    async close() {
      stopNotices();
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
