import { buildApp, createServiceClients, redisSessionRevocations, redisSsoStateStore } from '@tap/gateway';
import { tlsFromPem } from '@tap/grpc-kit';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { Readiness } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { testIdentity } from '@tap/testkit';
import { createTokenVerifier } from '@tap/tokens';

/**
 * The SSO provider key the document names as its example. The served document lists the keys the
 * gateway is configured with; the client's copy uses this one so generation needs no configuration.
 */
const EXAMPLE_SSO_PROVIDER = 'corp';
const EXAMPLE_APP_URL = 'https://app.example';

/**
 * The gateway's OpenAPI document as its routes describe it: the real `buildApp` with every route
 * registered (identity edge and SSO included), built in process and never listening. Nothing is
 * called: the gRPC targets are the discard port and Redis is never connected (lazyConnect).
 */
export async function buildGatewayDocument(): Promise<Record<string, unknown>> {
  const redis = createRateLimitRedis('redis://127.0.0.1:9', { lazyConnect: true });
  const clients = createServiceClients(
    {
      identity: '127.0.0.1:9',
      adoption: '127.0.0.1:9',
      entitlements: '127.0.0.1:9',
      notifications: '127.0.0.1:9',
    },
    tlsFromPem(await testIdentity('gateway')),
  );
  const app = await buildApp({
    config: {
      bodyLimitBytes: 65_536,
      trustProxyHops: 0,
      browser: {
        allowedOrigins: [EXAMPLE_APP_URL],
        cookieDomain: undefined,
        sso: {
          appUrl: EXAMPLE_APP_URL,
          publicApiUrl: 'http://127.0.0.1/api/v1',
          providers: [
            { key: EXAMPLE_SSO_PROVIDER, issuer: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's' },
          ],
        },
      },
    },
    clients,
    verifier: createTokenVerifier({
      issuer: 'https://identity.example',
      audience: 'tap-api',
      fetchJwks: async () => ({ keys: [] }),
    }),
    readiness: new Readiness(),
    logger: createLogger({ service: 'client-generate', level: 'silent' }),
    revocations: redisSessionRevocations(redis, 'client-generate:rev'),
    auth: {
      limiter: createRateLimiter({ redis, keyPrefix: 'client-generate' }),
      ssoStates: redisSsoStateStore(redis, 'client-generate:sso'),
    },
  });
  try {
    await app.ready();
    // @fastify/swagger decorates the instance; its type augmentation is the gateway's, not ours.
    const swagger = (app as unknown as { swagger(): Record<string, unknown> }).swagger();
    return structuredClone(swagger);
  } finally {
    await app.close();
    clients.close();
    redis.disconnect();
  }
}
