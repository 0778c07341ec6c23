import { loadConfigOrExit } from '@tap/config';
import { createHealthChecker, tlsFromFiles } from '@tap/grpc-kit';
import {
  createNatsDependency,
  installGracefulShutdown,
  installProcessPolicy,
  startHealthServer,
  startObservability,
} from '@tap/runtime';
import { identityTokenVerifier } from '@tap/service-auth';
import { metricsRoute } from '@tap/telemetry';
import { createRateLimiter, createRateLimitRedis } from '@tap/ratelimit';
import { createVerificationCache, DEFAULT_REVOCATION_KEY_PREFIX } from '@tap/tokens';
import { buildApp } from './app.js';
import { redisSsoStateStore } from './sso-states.js';
import { closeGracefully } from './http/close-gracefully.js';
import { createApiRequestTally } from './quota/api-request-tally.js';
import { createServiceClients } from './clients.js';
import { listenForTierChanges, tierQuotaSource } from './quota/tier-quota-source.js';
import { redisSessionRevocations } from './session-revocations.js';
import { observeRedisCommands } from './redis-command-metrics.js';
import { loadConfig } from './config.js';
import { createAnswerCache } from './http/answer-cache.js';
import { listenForAnswerChanges } from './answer-notices.js';

const config = loadConfigOrExit('gateway', () => loadConfig(process.env));
// Prometheus: one registry for the process (GET /metrics on the metrics port), gRPC calls reported to it.
const { telemetry, logger, readiness } = startObservability('gateway', config);
// An uncaught exception or unhandled rejection: fatal log line, exit 70 (docs/security.md).
installProcessPolicy({ service: 'gateway', logger });
// Redis commands are timed from ioredis's own diagnostics channel; limit decisions are counted
// by the HTTP metrics hook (http/plugins/metrics.ts). Nothing is wrapped.
observeRedisCommands();
readiness.setLogger(logger);

const tls = tlsFromFiles(config.grpcTls);
const clients = createServiceClients(config.services, tls);
const jwks = identityTokenVerifier(config.services.identity, tls, config.tokens, logger);
// A client reuses its token for 15 minutes: verify it once (revocation is still checked per request),
// for as long as its key stays in the key set.
const verifier = createVerificationCache(jwks.verifier);
// Notifications is not a readiness dependency: its outage answers 503 on its own routes
// (webhooks, feed, audit log) and must not take the whole API out of the load balancer.
const { notifications: _notifications, ...coreServices } = config.services;
const checkers = Object.entries(coreServices).map(([name, address]) => {
  const checker = createHealthChecker(address, tls, name);
  readiness.register(name, () => checker.check());
  return checker;
});

// The limiter's own Redis client: short timeouts and no resend of unanswered commands, so a
// check is never charged twice and a Redis outage costs milliseconds, not the request. Every
// metered request charges its quota through it (one script call) before its work: the calls of
// concurrent requests issued in one tick go out in one write (auto-pipelining batches writes; it
// never resends or reorders a command).
const redis = createRateLimitRedis(config.redisUrl, {
  commandTimeout: config.rateLimitTimeoutMs,
  enableAutoPipelining: true,
});
// Not a readiness dependency: quotas fail open, so a Redis outage must not take every gateway
// out of the load balancer.
redis.on('error', () => undefined);
const limiter = createRateLimiter({
  redis,
  keyPrefix: config.rateLimitPrefix,
  timeoutMs: config.rateLimitTimeoutMs,
});
// Admitted API requests per tenant and day, added to Redis in batches for entitlements' history.
const tally = createApiRequestTally(redis, {
  onError: (error) => logger.warn({ err: error }, 'API request tally not flushed; kept for the next flush'),
});
const quotas = { limiter, source: tierQuotaSource(clients.entitlements), tally };

// The revocation list and SSO states fail closed (503) while Redis is away: a logged-out token
// must not work. So they get a client of their own with a longer budget than the limiter's: a
// limiter that gives up after 100 ms lets the request through, this check would refuse it, and a
// Redis (or a node) busy for a moment must not turn into 503s. The token endpoints' limits use
// the limiter's client. Every API request asks this client once (EXISTS), so the commands of
// concurrent requests issued in one tick go out in one write (auto-pipelining).
const authRedis = createRateLimitRedis(config.redisUrl, {
  commandTimeout: config.revocationTimeoutMs,
  enableAutoPipelining: true,
});
authRedis.on('error', () => undefined);
const revocations = redisSessionRevocations(authRedis, DEFAULT_REVOCATION_KEY_PREFIX);
const auth = {
  limiter,
  ssoStates: redisSsoStateStore(authRedis, 'sso'),
};

// Adoption's read answers, kept per tenant while fresh and dropped on the services' change notices
// (docs/adoption-model.md, "Read models"). NATS is not a readiness dependency: without it every
// read asks adoption, as it would with GATEWAY_ANSWER_REUSE_MS=0.
const answers = createAnswerCache({ reuseMs: config.answers.reuseMs });
const natsAbort = new AbortController();
const nats = createNatsDependency({
  servers: config.answers.natsUrl,
  name: 'gateway',
  logger,
  signal: natsAbort.signal,
});
let stopAnswerNotices = (): void => undefined;
void nats.connected().then(
  (nc) => {
    const stopAnswers = listenForAnswerChanges(nc, config.answers.subjectPrefix, answers);
    // Quotas follow entitlements' notices too: a tier change drops the tenant's quota at once.
    const stopQuotas = listenForTierChanges(nc, config.answers.subjectPrefix, quotas.source);
    stopAnswerNotices = () => {
      stopAnswers();
      stopQuotas();
    };
  },
  () => undefined,
);

const app = await buildApp({
  config,
  clients,
  verifier,
  readiness,
  logger,
  quotas,
  revocations,
  auth,
  answers,
});
await app.listen({ host: config.host, port: config.port });
// Prometheus scrapes a port of its own: the API port faces the Internet, and route counts,
// limiter decisions and latencies are nobody's business there (docs/operations.md, "Metrics").
const admin = await startHealthServer({
  host: config.host,
  port: config.metricsPort,
  readiness,
  extraRoute: metricsRoute(),
});

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
    { name: 'api request tally', run: () => tally.stop() },
    { name: 'redis', run: async () => void (await Promise.all([redis.quit(), authRedis.quit()])) },
    {
      name: 'nats',
      run: async () => {
        natsAbort.abort();
        stopAnswerNotices();
        await nats.close();
      },
    },
    { name: 'telemetry', run: () => telemetry.shutdown() },
    { name: 'metrics port', run: () => admin.close() },
  ],
});
