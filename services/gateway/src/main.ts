import { loadConfigOrExit } from '@tap/config';
import { createHealthChecker, setRpcObserver } from '@tap/grpc-kit';
import { installGracefulShutdown, Readiness } from '@tap/runtime';
import { identityJwksFetcher } from '@tap/service-auth';
import {
  countLimiterDecisions,
  createLogger,
  initMetrics,
  instrumentRedis,
  rpcMetricsObserver,
  startTelemetry,
} from '@tap/telemetry';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { createTokenVerifier, createVerificationCache, DEFAULT_REVOCATION_KEY_PREFIX } from '@tap/tokens';
import { buildApp } from './app.js';
import { redisSsoStateStore } from './sso-states.js';
import { closeGracefully } from './http/close-gracefully.js';
import { createServiceClients } from './clients.js';
import { tierQuotaSource } from './quota/tier-quota-source.js';
import { redisSessionRevocations } from './session-revocations.js';
import { loadConfig } from './config.js';

const config = loadConfigOrExit('gateway', () => loadConfig(process.env));
const telemetry = startTelemetry({ serviceName: 'gateway', otlpTracesUrl: config.otlpTracesUrl });
const logger = createLogger({ service: 'gateway', level: config.logLevel as 'info' });
// Prometheus: one registry for the process (GET /metrics), gRPC calls reported to it.
initMetrics('gateway');
setRpcObserver(rpcMetricsObserver);
const readiness = new Readiness();

const clients = createServiceClients(config.services);
const jwks = identityJwksFetcher(config.services.identity);
// A client reuses its token for 15 minutes: verify it once (revocation is still checked per request).
const verifier = createVerificationCache(createTokenVerifier({ ...config.tokens, fetchJwks: jwks.fetch }));
const checkers = Object.entries(config.services).map(([name, address]) => {
  const checker = createHealthChecker(address);
  readiness.register(name, () => checker.check());
  return checker;
});

// The limiter's own Redis client: short timeouts and no resend of unanswered commands, so a
// check is never charged twice and a Redis outage costs milliseconds, not the request.
const redis = instrumentRedis(
  createRateLimitRedis(config.redisUrl, { commandTimeout: config.rateLimitTimeoutMs }),
);
// Not a readiness dependency: quotas fail open, so a Redis outage must not take every gateway
// out of the load balancer.
redis.on('error', () => undefined);
// Decisions of the quotas and the auth-endpoint limits are counted by policy and outcome.
const limiter = countLimiterDecisions(
  createRateLimiter({ redis, keyPrefix: 'rl', timeoutMs: config.rateLimitTimeoutMs }),
);
const quotas = { limiter, source: tierQuotaSource(clients.entitlements) };

// Same client for identity's edge: the token endpoints' limits and the revocation list. The
// revocation check fails closed (503) while Redis is away: a logged-out token must not work.
const auth = {
  limiter,
  revocations: redisSessionRevocations(redis, DEFAULT_REVOCATION_KEY_PREFIX),
  ssoStates: redisSsoStateStore(redis, 'sso'),
};

const app = await buildApp({ config, clients, verifier, readiness, logger, quotas, auth });
await app.listen({ host: config.host, port: config.port });

installGracefulShutdown({
  readiness,
  logger,
  steps: [
    // Stops accepting, answers in-flight requests (503 for any that arrive meanwhile), then closes.
    { name: 'http', run: () => closeGracefully(app) },
    {
      name: 'grpc clients',
      run: async () => {
        clients.close();
        jwks.close();
        for (const checker of checkers) checker.close();
      },
    },
    { name: 'redis', run: async () => void (await redis.quit()) },
    { name: 'telemetry', run: () => telemetry.shutdown() },
  ],
});
