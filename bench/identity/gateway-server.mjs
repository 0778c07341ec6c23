#!/usr/bin/env node
/**
 * The gateway as production builds it (buildApp, the JWKS verifier over identity's gRPC, the
 * Redis revocation list, the auth-endpoint limiter), plus two bench routes that differ only in
 * the token check: `GET /bench/checked` sits behind the gateway's API authentication plugin
 * (the one registered on /api/v1: token, revocation list, the route table's requirement of
 * `GET /entitlements/usage`) and answers at once; `GET /bench/unchecked` has no check.
 * Two instances: the first verifies with the verification cache, as main.ts wires it; the
 * second verifies every request with jose (a client that never reuses a token).
 * Started by run.mjs as its own process; prints `READY <port> <uncached port>` when listening.
 */
import process from 'node:process';
import {
  apiAuthenticationPlugin,
  buildApp,
  createServiceClients,
  redisSessionRevocations,
} from '@tap/gateway';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { tlsFromFiles } from '@tap/grpc-kit';
import { Readiness } from '@tap/runtime';
import { identityJwksFetcher } from '@tap/service-auth';
import { createLogger } from '@tap/telemetry';
import { createTokenVerifier, createVerificationCache, DEFAULT_REVOCATION_KEY_PREFIX } from '@tap/tokens';

const identityAddress = process.env['IDENTITY_GRPC_ADDRESS'] ?? '';
const redisUrl = process.env['REDIS_URL'] ?? '';
const keyPrefix = process.env['BENCH_KEY_PREFIX'] ?? 'bench';

const logger = createLogger({ service: 'bench-gateway', level: 'silent' });
// Adoption, entitlements and notifications are not on these routes; their channels stay idle.
// The gateway's certificate (GRPC_TLS_*, written by run.mjs).
const tls = tlsFromFiles({
  certFile: process.env['GRPC_TLS_CERT_FILE'] ?? '',
  keyFile: process.env['GRPC_TLS_KEY_FILE'] ?? '',
  caFile: process.env['GRPC_TLS_CA_FILE'] ?? '',
});
const clients = createServiceClients(
  {
    identity: identityAddress,
    adoption: '127.0.0.1:9',
    entitlements: '127.0.0.1:9',
    notifications: '127.0.0.1:9',
  },
  tls,
);
const jwks = identityJwksFetcher(identityAddress, tls);
const verifier = createTokenVerifier({
  issuer: 'https://identity.tap.local',
  audience: 'tap-api',
  fetchJwks: jwks.fetch,
});
const redis = createRateLimitRedis(redisUrl);
redis.on('error', () => undefined);
const revocations = redisSessionRevocations(redis, DEFAULT_REVOCATION_KEY_PREFIX);
const auth = { limiter: createRateLimiter({ redis, keyPrefix }) };
const payload = { success: true, data: { ok: true } };

/** @param {import('@tap/tokens').TokenVerifier} routeVerifier */
async function start(routeVerifier) {
  const app = await buildApp({
    config: { bodyLimitBytes: 64 * 1024, trustProxyHops: 1 },
    clients,
    verifier: routeVerifier,
    readiness: new Readiness(),
    logger,
    revocations,
    auth,
  });
  // The route table knows `/entitlements/usage`; under the `/bench` prefix it answers here at once.
  await app.register(
    async (scope) => {
      await scope.register(apiAuthenticationPlugin, {
        prefix: '/bench',
        verifier: routeVerifier,
        revocations,
      });
      scope.get('/entitlements/usage', async () => payload);
    },
    { prefix: '/bench' },
  );
  app.get('/bench/unchecked', async () => payload);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : 0 };
}

const cached = await start(createVerificationCache(verifier));
const uncached = await start(verifier);
process.stdout.write(`READY ${cached.port} ${uncached.port}\n`);

process.once('SIGTERM', () => {
  void Promise.all([cached.app.close(), uncached.app.close()]).then(() => {
    clients.close();
    jwks.close();
    redis.disconnect();
    process.exit(0);
  });
});
