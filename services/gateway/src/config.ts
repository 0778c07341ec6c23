import {
  csv,
  durationMs,
  httpUrl,
  identifier,
  listenPort,
  natsUrl,
  num,
  parseEnv,
  redisUrl,
  str,
  TELEMETRY_ENV,
  telemetryFromEnv,
} from '@tap/config';
import { DEFAULT_JWKS_REFRESH_INTERVAL_MS } from '@tap/tokens';
import type { TlsFiles } from '@tap/grpc-kit';
import { GRPC_TLS_ENV, grpcTlsFromEnv } from '@tap/service-auth';

import { fileURLToPath } from 'node:url';
import { parseSsoProviders, type SsoProviderSettings } from './sso-providers-config.js';
import { DEFAULT_ANSWER_REUSE_MS } from './http/answer-cache.js';

export const DEFAULT_PORT = 3000;
/** Prometheus's `/metrics` (and the probes again), never on the Internet-facing API port. */
export const DEFAULT_METRICS_PORT = 9464;
/** The built web console, next to this package in the repository (services/gateway/dist → apps/console/dist). */
export const DEFAULT_CONSOLE_DIR = fileURLToPath(new URL('../../../apps/console/dist', import.meta.url));
/** JSON bodies larger than this are refused with 413 before they are parsed. */
export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** Open event streams (server-sent events) one tenant may hold on one gateway process. */
export const DEFAULT_EVENT_STREAMS_PER_TENANT = 5;
/** How often an open event stream asks the notifications service for newer events. */
export const DEFAULT_EVENT_STREAM_POLL_MS = 1_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
export const DEFAULT_EVENT_STREAM_HEARTBEAT_MS = 15_000;

export interface GatewayConfig {
  readonly host: string;
  readonly port: number;
  /** The admin port: `GET /metrics`, `/healthz`, `/readyz`; reachable from the scraper only. */
  readonly metricsPort: number;
  readonly bodyLimitBytes: number;
  /** How many proxy hops in front of the gateway to trust for the client address. */
  readonly trustProxyHops: number;
  readonly services: {
    readonly identity: string;
    readonly adoption: string;
    readonly entitlements: string;
    readonly notifications: string;
  };
  /** `GET /tenant/events` as server-sent events (docs/api.md, "Events feed"). */
  readonly eventStreams: EventStreamSettings;
  readonly tokens: {
    readonly issuer: string;
    readonly audience: string;
    /** How often identity's key set is refetched: a key retired at once stops verifying within it. */
    readonly jwksRefreshIntervalMs: number;
  };
  readonly redisUrl: string;
  /**
   * Adoption's read answers kept per tenant (http/answer-cache.ts): for how long (`GATEWAY_ANSWER_REUSE_MS`,
   * 0 = never), and where the services' change notices come from (`NATS_URL`, subscribe only, on
   * `<EVENTS_SUBJECT_PREFIX>-cache.*`).
   */
  readonly answers: {
    readonly reuseMs: number;
    readonly natsUrl: string;
    readonly subjectPrefix: string;
  };
  /**
   * The limiter's Redis key prefix (`GATEWAY_RATE_LIMIT_PREFIX`, default `rl`): every gateway of a
   * deployment shares it; two deployments on one Redis (or two test stacks) must not.
   */
  readonly rateLimitPrefix: string;
  /** How long a rate-limit check waits for Redis before the limit's Redis-down policy decides. */
  readonly rateLimitTimeoutMs: number;
  /**
   * How long the revocation check (and the SSO state store) waits for Redis. Longer than the
   * limiter's: those fail closed, so giving up means a 503 for the caller, not a free pass.
   */
  readonly revocationTimeoutMs: number;
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
  /** mTLS certificate, key and CA files (GRPC_TLS_*), read again as they rotate. */
  readonly grpcTls: TlsFiles;
  /** The built web console served at /console/ (`CONSOLE_DIR`; `off` serves none). */
  readonly consoleDir: string | undefined;
  /** The /auth/v2 browser surface (docs/browser-sessions.md). */
  readonly browser: {
    /** Origins allowed to call /auth/v2 (`ALLOWED_ORIGINS`, comma-separated). */
    readonly allowedOrigins: readonly string[];
    /** Parent domain of the session cookies (`COOKIE_DOMAIN`); host-only cookies when unset. */
    readonly cookieDomain: string | undefined;
    /** Single sign-on: the web app (`APP_URL`), this API's public base (`PUBLIC_API_URL`), the providers (`SSO_PROVIDERS`). */
    readonly sso?: {
      readonly appUrl: string;
      readonly publicApiUrl: string;
      readonly providers: readonly SsoProviderSettings[];
    };
  };
}

export interface EventStreamSettings {
  /** Open streams per tenant on this process (`GATEWAY_EVENT_STREAMS_PER_TENANT`); one more is 429. */
  readonly perTenant: number;
  /** How often a stream polls for newer events (`GATEWAY_EVENT_STREAM_POLL_MS`). */
  readonly pollMs: number;
  /** How often a quiet stream sends a heartbeat comment (`GATEWAY_EVENT_STREAM_HEARTBEAT_MS`). */
  readonly heartbeatMs: number;
}

/** Reads and validates the gateway's environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): GatewayConfig {
  const e = parseEnv(env, {
    ...GRPC_TLS_ENV,
    HOST: str({ default: '127.0.0.1' }),
    GATEWAY_PORT: listenPort({ default: DEFAULT_PORT }),
    GATEWAY_METRICS_PORT: listenPort({ default: DEFAULT_METRICS_PORT }),
    GATEWAY_BODY_LIMIT_BYTES: num({ default: DEFAULT_BODY_LIMIT_BYTES }),
    GATEWAY_TRUST_PROXY_HOPS: num({ default: 0 }),
    IDENTITY_GRPC_ADDRESS: str({ default: '127.0.0.1:50051' }),
    ADOPTION_GRPC_ADDRESS: str({ default: '127.0.0.1:50052' }),
    ENTITLEMENTS_GRPC_ADDRESS: str({ default: '127.0.0.1:50053' }),
    NOTIFICATIONS_GRPC_ADDRESS: str({ default: '127.0.0.1:50054' }),
    GATEWAY_EVENT_STREAMS_PER_TENANT: num({ default: DEFAULT_EVENT_STREAMS_PER_TENANT }),
    GATEWAY_EVENT_STREAM_POLL_MS: durationMs({ default: DEFAULT_EVENT_STREAM_POLL_MS }),
    GATEWAY_EVENT_STREAM_HEARTBEAT_MS: durationMs({ default: DEFAULT_EVENT_STREAM_HEARTBEAT_MS }),
    TOKEN_ISSUER: str({ default: 'https://identity.tap.local' }),
    TOKEN_AUDIENCE: str({ default: 'tap-api' }),
    JWKS_REFRESH_INTERVAL_MS: durationMs({ default: DEFAULT_JWKS_REFRESH_INTERVAL_MS }),
    REDIS_URL: redisUrl({ default: 'redis://127.0.0.1:6379' }),
    NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
    EVENTS_SUBJECT_PREFIX: identifier({ default: 'events' }),
    GATEWAY_ANSWER_REUSE_MS: num({ default: DEFAULT_ANSWER_REUSE_MS }),
    GATEWAY_RATE_LIMIT_PREFIX: identifier({ default: 'rl' }),
    GATEWAY_RATE_LIMIT_TIMEOUT_MS: durationMs({ default: 100 }),
    GATEWAY_REVOCATION_TIMEOUT_MS: durationMs({ default: 1_000 }),
    ...TELEMETRY_ENV,
    ALLOWED_ORIGINS: csv({ default: ['http://localhost:3000'] }),
    COOKIE_DOMAIN: str({ default: '' }),
    APP_URL: httpUrl({ default: 'http://localhost:3000' }),
    PUBLIC_API_URL: httpUrl({ default: 'http://localhost:3000/api/v1' }),
    SSO_PROVIDERS: str({ default: '[]' }),
    CONSOLE_DIR: str({ default: DEFAULT_CONSOLE_DIR }),
  });
  return Object.freeze({
    grpcTls: Object.freeze(grpcTlsFromEnv(e)),
    host: e.HOST,
    port: e.GATEWAY_PORT,
    metricsPort: e.GATEWAY_METRICS_PORT,
    bodyLimitBytes: e.GATEWAY_BODY_LIMIT_BYTES,
    trustProxyHops: e.GATEWAY_TRUST_PROXY_HOPS,
    services: Object.freeze({
      identity: e.IDENTITY_GRPC_ADDRESS,
      adoption: e.ADOPTION_GRPC_ADDRESS,
      entitlements: e.ENTITLEMENTS_GRPC_ADDRESS,
      notifications: e.NOTIFICATIONS_GRPC_ADDRESS,
    }),
    eventStreams: Object.freeze({
      perTenant: e.GATEWAY_EVENT_STREAMS_PER_TENANT,
      pollMs: e.GATEWAY_EVENT_STREAM_POLL_MS,
      heartbeatMs: e.GATEWAY_EVENT_STREAM_HEARTBEAT_MS,
    }),
    tokens: Object.freeze({
      issuer: e.TOKEN_ISSUER,
      audience: e.TOKEN_AUDIENCE,
      jwksRefreshIntervalMs: e.JWKS_REFRESH_INTERVAL_MS,
    }),
    redisUrl: e.REDIS_URL,
    answers: Object.freeze({
      reuseMs: e.GATEWAY_ANSWER_REUSE_MS,
      natsUrl: e.NATS_URL,
      subjectPrefix: e.EVENTS_SUBJECT_PREFIX,
    }),
    rateLimitPrefix: e.GATEWAY_RATE_LIMIT_PREFIX,
    rateLimitTimeoutMs: e.GATEWAY_RATE_LIMIT_TIMEOUT_MS,
    revocationTimeoutMs: e.GATEWAY_REVOCATION_TIMEOUT_MS,
    ...telemetryFromEnv(e),
    consoleDir: e.CONSOLE_DIR === 'off' ? undefined : e.CONSOLE_DIR,
    browser: Object.freeze({
      allowedOrigins: e.ALLOWED_ORIGINS,
      cookieDomain: e.COOKIE_DOMAIN || undefined,
      sso: Object.freeze({
        appUrl: e.APP_URL,
        publicApiUrl: e.PUBLIC_API_URL.replace(/\/$/, ''),
        providers: parseSsoProviders(e.SSO_PROVIDERS),
      }),
    }),
  });
}
