import { type DomainStreamConfig, durationMs, type EventsConfig, parseEnv } from '@tap/config';
import { consumingServiceEnv, consumingServiceFromEnv, type ConsumingServiceConfig } from '@tap/runtime';

// One events block for every consuming service (@tap/config): its type, defaults and variables.
export type { EventsConfig } from '@tap/config';

export const DEFAULT_GRPC_PORT = 50053;
export const DEFAULT_HTTP_PORT = 8083;
/** The clean-up job releases expired holds this often; a hold outlives its expiry by at most this. */
export const DEFAULT_CLEANUP_INTERVAL_MS = 60_000;
/**
 * How long an applied event id is remembered (it is what makes a redelivery count nothing).
 * Keep it at least as long as the event stream's max age: a replay of an event older than this
 * would be counted again.
 */
export const DEFAULT_APPLIED_EVENT_RETENTION_MS = 7 * 24 * 60 * 60_000;
/** The clean-up job's schedule and retention. */
export interface CleanupConfig {
  readonly intervalMs: number;
  readonly appliedEventRetentionMs: number;
}

/** What runConsumingService reads (host, ports, MongoDB, NATS, Redis, tokens, TLS, …) and the service's own. */
export interface EntitlementsConfig extends ConsumingServiceConfig {
  readonly events: EventsConfig;
  readonly cleanup: CleanupConfig;
  /** The domain stream tier.changed and usage.threshold_* go to (docs/entitlements-model.md). */
  readonly domain: DomainStreamConfig;
}

/** Reads and validates the environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): EntitlementsConfig {
  const e = parseEnv(env, {
    ...consumingServiceEnv({
      prefix: 'ENTITLEMENTS',
      name: 'entitlements',
      grpcPort: DEFAULT_GRPC_PORT,
      httpPort: DEFAULT_HTTP_PORT,
    }),
    ENTITLEMENTS_CLEANUP_INTERVAL_MS: durationMs({ default: DEFAULT_CLEANUP_INTERVAL_MS }),
    ENTITLEMENTS_APPLIED_EVENT_RETENTION_MS: durationMs({ default: DEFAULT_APPLIED_EVENT_RETENTION_MS }),
  });
  return Object.freeze({
    ...consumingServiceFromEnv('ENTITLEMENTS', e),
    cleanup: Object.freeze({
      intervalMs: e.ENTITLEMENTS_CLEANUP_INTERVAL_MS,
      appliedEventRetentionMs: e.ENTITLEMENTS_APPLIED_EVENT_RETENTION_MS,
    }),
  });
}
