import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { withRequestId } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import { redactUrl, requestLogSerializer, tracesRecorded } from '@tap/telemetry';
import type { Readiness } from '@tap/runtime';
import type { TokenVerifier } from '@tap/tokens';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import type { ApiRequestCountReader } from './api-request-counts.js';
import { createAnswerCache, type AnswerCache } from './http/answer-cache.js';
import type { ServiceClients } from './clients.js';
import { acceptEmptyJsonBodies } from './http/json-body.js';
import { apiQuotaPlugin } from './http/plugins/api-quota.js';
import { apiAuthenticationPlugin } from './http/plugins/api-authentication.js';
import { noStorePlugin } from './http/plugins/no-store.js';
import { toHttpError } from './http/errors/map-error.js';
import { sendHttpError } from './http/errors/send-http-error.js';
import { errorHandlerPlugin } from './http/plugins/error-handler.js';
import { metricsPlugin } from './http/plugins/metrics.js';
import { unmatchedRoutesPlugin } from './http/plugins/unmatched-routes.js';
import { GATEWAY_FORMATS } from './http/formats.js';
import { openApiPlugin, openApiRoute } from './http/openapi/openapi-plugin.js';
import { apiReferenceRoutes } from './http/docs/api-reference-routes.js';
import { adoptionRoutes } from './http/routes/adoption.js';
import { entitlementRoutes } from './http/routes/entitlements.js';
import { usageHistoryRoutes } from './http/routes/usage-history.js';
import { trustProxyHops } from './http/auth/client-address.js';
import { healthRoutes } from './http/routes/health.js';
import { consolePlugin } from './http/console/console-plugin.js';
import { identityEdgeRoutes } from './http/routes/identity-edge.js';
import { tenantRoutes } from './http/routes/tenant.js';
import { webhookRoutes } from './http/routes/webhooks.js';
import { eventsFeedRoutes } from './http/routes/events-feed.js';
import { eventStreams } from './http/routes/event-stream.js';
import { auditEventRoutes } from './http/routes/audit-events.js';
import {
  DEFAULT_EVENT_STREAM_HEARTBEAT_MS,
  DEFAULT_EVENT_STREAM_POLL_MS,
  DEFAULT_EVENT_STREAMS_PER_TENANT,
  type GatewayConfig,
} from './config.js';
import type { SessionRevocations } from './session-revocations.js';
import type { SsoStateStore } from './sso-states.js';
import { apiAccessUpgradeContext } from './http/plugins/api-access-upgrade-context.js';
import { limiterRequestCounts } from './quota/limiter-request-counts.js';
import type { ApiRequestTally } from './quota/api-request-tally.js';
import type { QuotaSource } from './quota/tier-quota-source.js';

export const API_PREFIX = '/api/v1';

export interface GatewayDeps {
  readonly config: Pick<GatewayConfig, 'bodyLimitBytes' | 'trustProxyHops'> &
    Partial<Pick<GatewayConfig, 'browser' | 'consoleDir' | 'eventStreams'>>;
  readonly clients: ServiceClients;
  readonly verifier: TokenVerifier;
  readonly readiness: Readiness;
  readonly logger: FastifyBaseLogger;
  /** The rate limiter's read of a tenant's API request counts, for the usage report. */
  readonly apiRequestCounts?: ApiRequestCountReader;
  /** API quotas per tier (docs/rate-limiting.md); without them nothing is metered (tests of other parts). */
  readonly quotas?: {
    readonly limiter: RateLimiter;
    readonly source: QuotaSource;
    /** Admitted API requests per tenant and UTC day, for the usage history. */
    readonly tally?: ApiRequestTally;
  };
  /**
   * The revocation list every authenticated request is checked against (logout takes effect at
   * once). Required: there is no way to build a gateway that skips it.
   */
  readonly revocations: SessionRevocations;
  /**
   * Identity's edge: the limiter of the token endpoints (which are only served with it). main.ts
   * always passes it; test beds of other routes may leave it out.
   */
  readonly auth?: {
    readonly limiter: RateLimiter;
    /** Single-use SSO state (docs/browser-sessions.md); SSO is off without it. */
    readonly ssoStates?: SsoStateStore;
  };
  /**
   * Adoption's reads and entitlements' `can` and upgrade context, their answers kept per tenant
   * (http/answer-cache.ts), listening to the services'
   * change notices (answer-notices.ts). Without it, or while it is not listening, every read asks
   * the service.
   */
  readonly answers?: AnswerCache;
  /** Sees every route as it is registered (the OpenAPI test checks the document lists them all). */
  readonly onRoute?: (route: RouteOptions) => void;
}

/**
 * The gateway as a Fastify instance that is not yet listening (tests use `inject()` or listen
 * on port 0). Infrastructure plugins first, then the API under /api/v1.
 */
export async function buildApp(deps: GatewayDeps): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    // Request URLs are logged without their query strings (SSO code and state, refused tokens),
    // whatever logger the caller hands in.
    loggerInstance: deps.logger.child({}, { serializers: { req: requestLogSerializer } }),
    bodyLimit: deps.config.bodyLimitBytes,
    // A hop count, never `true`: trusting every X-Forwarded-For would let callers pick their IP.
    trustProxy: deps.config.trustProxyHops > 0 ? trustProxyHops(deps.config.trustProxyHops) : false,
    return503OnClosing: true,
    // Every request gets an id of ours (a caller's X-Request-ID is not trusted): it is answered in
    // `x-request-id` and carried into the services' gRPC calls, so an audit entry names it.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        allErrors: true,
        formats: GATEWAY_FORMATS,
      },
    },
    // Without this the router answers a bad URL or an over-long path parameter itself, in
    // Fastify's own body (and 414), before any error handler runs.
    frameworkErrors: (error, _request, reply) => {
      void sendHttpError(reply, toHttpError(error));
    },
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    done();
  });
  // After the body is read, so the handler and every gRPC call it makes run with the id.
  app.addHook('preHandler', (request, _reply, done) => withRequestId(request.id, done));
  // Without a cache of main.ts's, one that never listens: every read asks its service.
  const answers = deps.answers ?? createAnswerCache({ reuseMs: 0 });
  // A server span per request, only where spans are recorded (tracesRecorded): without a tracer
  // provider the plugin's hooks and handler wrapping made nothing but cost every request.
  if (tracesRecorded()) {
    const otel = new FastifyOtelInstrumentation({
      instrumentHooks: false,
      ignorePaths: (opts: { url: string }) => opts.url === '/healthz' || opts.url === '/readyz',
      // The plugin records `url.path` with the query string; spans keep the path only.
      requestHook: (span, request) => {
        span.setAttribute('url.path', redactUrl(request.url));
      },
    });
    await app.register(otel.plugin());
  }
  acceptEmptyJsonBodies(app);
  // Cookies parsed once per request that has any (the browser surface), written at onSend.
  await app.register(fastifyCookie);
  await app.register(errorHandlerPlugin);
  // Before any body is parsed: an unmatched request gets its 404 or 405 (unmatched-routes.ts).
  await app.register(unmatchedRoutesPlugin);
  await app.register(metricsPlugin);
  // Before every route: the document is built from the routes registered after it.
  await app.register(openApiPlugin);
  await app.register(healthRoutes, { readiness: deps.readiness });
  // The first-party web console on this origin, outside /api/v1 (docs/browser-sessions.md).
  if (deps.config.consoleDir) await app.register(consolePlugin, { root: deps.config.consoleDir });
  await app.register(
    async (api) => {
      // Who may call each route under /api/v1: one table, applied as routes register, and one
      // authentication hook for the whole scope (docs/security.md).
      // Nothing under /api/v1 is cacheable but the published interface (http/plugins/no-store.ts).
      await api.register(noStorePlugin, { prefix: API_PREFIX });
      await api.register(apiAuthenticationPlugin, {
        prefix: API_PREFIX,
        verifier: deps.verifier,
        revocations: deps.revocations,
      });
      if (deps.quotas) {
        await api.register(apiQuotaPlugin, {
          limiter: deps.quotas.limiter,
          quotas: deps.quotas.source,
          upgradeContext: apiAccessUpgradeContext(deps.clients),
          tally: deps.quotas.tally,
        });
      }
      await api.register(openApiRoute);
      await api.register(apiReferenceRoutes);
      await api.register(tenantRoutes, { clients: deps.clients });
      await api.register(adoptionRoutes, { clients: deps.clients, answers });
      const apiRequestCounts =
        deps.apiRequestCounts ??
        (deps.quotas ? limiterRequestCounts(deps.quotas.limiter, deps.quotas.source) : undefined);
      await api.register(entitlementRoutes, { clients: deps.clients, apiRequestCounts, answers });
      await api.register(usageHistoryRoutes, { clients: deps.clients, apiRequestCounts });
      await api.register(webhookRoutes, { clients: deps.clients });
      const streams = eventStreams(
        deps.config.eventStreams ?? {
          perTenant: DEFAULT_EVENT_STREAMS_PER_TENANT,
          pollMs: DEFAULT_EVENT_STREAM_POLL_MS,
          heartbeatMs: DEFAULT_EVENT_STREAM_HEARTBEAT_MS,
        },
      );
      await api.register(eventsFeedRoutes, { clients: deps.clients, streams });
      await api.register(auditEventRoutes, { clients: deps.clients });
      if (deps.auth)
        await api.register(identityEdgeRoutes, {
          clients: deps.clients,
          limiter: deps.auth.limiter,
          browser: deps.config.browser,
          ssoStates: deps.auth.ssoStates,
        });
    },
    { prefix: API_PREFIX },
  );
  return app;
}
