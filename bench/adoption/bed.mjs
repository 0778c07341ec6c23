import { setTimeout as sleep } from 'node:timers/promises';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { buildApp as buildAdoption } from '@tap/adoption';
import { contracts } from '@tap/contracts';
import { buildApp as buildEntitlements } from '@tap/entitlements';
import { createDomainEventPublisher, createEventPublisher, ensureEventStream } from '@tap/events';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { createRateLimitRedis } from '@tap/ratelimit';
import { redisSessionRevocations } from '@tap/service-auth';
import { testIdentity } from '@tap/testkit';
import { createLogger } from '@tap/telemetry';
import {
  createTokenSigner,
  createTokenVerifier,
  createVerificationCache,
  generateSigningKey,
  importPrivateKey,
} from '@tap/tokens';
import { MongoClient } from 'mongodb';

const TOKENS = { issuer: 'https://identity.adoption-bench', audience: 'tap-api' };

/**
 * Adoption and entitlements built in this process, as in production but without identity: a
 * real ES256 key signs the tokens and both services verify them with jose. Everything lives
 * under `prefix` (databases, stream, subjects) and is removed by `close()`.
 * @param {{ mongoUrl: string; natsUrl: string; redisUrl: string }} urls
 * @param {string} prefix
 * @param {{ readModelTtlMs?: number }} [adoptionOptions] passed to the adoption app
 */
export async function openBed(urls, prefix, adoptionOptions = {}) {
  const logger = createLogger({ service: 'adoption-bench', level: 'silent' });
  const key = await generateSigningKey();
  const signer = createTokenSigner({
    kid: key.kid,
    privateKey: await importPrivateKey(key.privateJwk),
    ...TOKENS,
  });
  const keySet = createTokenVerifier({ ...TOKENS, fetchJwks: async () => ({ keys: [key.publicJwk] }) });
  // As in production, each service remembers the tokens it verified (its own cache).
  const verifier = () => createVerificationCache(keySet);
  const mongo = new MongoClient(urls.mongoUrl);
  const db = mongo.db(`${prefix}_adoption`);
  const entitlementsDb = mongo.db(`${prefix}_entitlements`);
  // As in production: mTLS with per-service certificates (the test PKI) and the revocation list.
  const redis = createRateLimitRedis(urls.redisUrl, { commandTimeout: 1_000 });
  for (let waited = 0; redis.status !== 'ready' && waited < 10_000; waited += 20) await sleep(20);
  const revocations = redisSessionRevocations(redis, `${prefix}:revoked`);
  const adoptionTls = tlsFromPem(await testIdentity('adoption'));
  const nc = await connect({ servers: urls.natsUrl, name: prefix });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  const events = {
    streamName: prefix.toUpperCase(),
    subjectPrefix: prefix,
    consumerName: prefix,
    duplicateWindowMs: 60_000,
  };
  await ensureEventStream(jsm, {
    streamName: events.streamName,
    subjectPrefix: prefix,
    duplicateWindowMs: 60_000,
  });
  const publisher = createEventPublisher(js, { subjectPrefix: prefix });
  const entitlements = buildEntitlements({
    config: {},
    db: entitlementsDb,
    verifier: verifier(),
    revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger,
    // Tier changes reach adoption as tier.changed on the stream, as in production.
    publish: (e) => publisher.publish(e),
  });
  await entitlements.prepare();
  const entitlementsAddress = `127.0.0.1:${await entitlements.grpc.listen('127.0.0.1', 0)}`;
  const operatorEntitlements = createClient(
    contracts().entitlements.EntitlementsService,
    entitlementsAddress,
    tlsFromPem(await testIdentity('operator')),
  );
  // As in production: rung, band and risk-signal events go to a domain stream (startConsumer ensures it).
  const domain = { streamName: `${events.streamName}_DOMAIN`, subjectPrefix: `${prefix}_domain` };
  const domainPublisher = createDomainEventPublisher(js, { subjectPrefix: domain.subjectPrefix });
  const adoption = buildAdoption({
    config: { events, domain },
    db,
    verifier: verifier(),
    revocations,
    tls: adoptionTls,
    publish: (e) => publisher.publish(e),
    publishDomain: (e) => domainPublisher.publish(e),
    logger,
    ...adoptionOptions,
  });
  await adoption.prepare();
  const adoptionAddress = `127.0.0.1:${await adoption.grpc.listen('127.0.0.1', 0)}`;
  const client = createClient(
    contracts().adoption.AdoptionService,
    adoptionAddress,
    tlsFromPem(await testIdentity('gateway')),
  );
  /** Streams to delete on close (the adoption stream and any baseline stream). */
  const streams = [events.streamName, domain.streamName];
  return {
    streams,
    urls,
    adoptionAddress,
    db,
    nc,
    js,
    jsm,
    events,
    publisher,
    adoption,
    client,
    /** What a gateway in front needs (bench/adoption-reads). */
    front: { adoptionAddress, entitlementsAddress, verifier: verifier(), revocations, redis },
    /** @param {string} tenantId @param {string} tierCode */
    setTier: (tenantId, tierCode) => unaryCall(operatorEntitlements, 'SetTier', { tenantId, tierCode }),
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
      client.close();
      operatorEntitlements.close();
      await redis.quit();
      await Promise.all([adoption.grpc.shutdown(500), entitlements.grpc.shutdown(500)]);
      for (const name of streams) await jsm.streams.delete(name).catch(() => undefined);
      await nc.drain();
      await Promise.all([db.dropDatabase(), entitlementsDb.dropDatabase()]);
      await mongo.close();
    },
  };
}
