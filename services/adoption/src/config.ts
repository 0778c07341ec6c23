import { ConfigError, type DomainStreamConfig, durationMs, type EventsConfig, parseEnv } from '@tap/config';
import { consumingServiceEnv, consumingServiceFromEnv, type ConsumingServiceConfig } from '@tap/runtime';

export const DEFAULT_GRPC_PORT = 50052;
export const DEFAULT_HTTP_PORT = 8082;
/** How often the drift watch looks for tenants whose risk signals are due to move. */
export const DEFAULT_DRIFT_INTERVAL_MS = 60_000;
/** Longest a tenant with facts goes without a drift-watch recompute (new time-only risks, decay). */
export const DEFAULT_DRIFT_RESCAN_MS = 15 * 60_000;
/** How long a replica's claim on a tenant keeps other replicas off it (far above one recompute). */
export const DEFAULT_DRIFT_LEASE_MS = 60_000;

/** How often the outbox relay looks for milestone.completed events still to be published. */
export const DEFAULT_OUTBOX_INTERVAL_MS = 10_000;
/**
 * How long after a completion the relay leaves its event to the completing call (which
 * publishes at once) before it publishes it itself.
 */
export const DEFAULT_OUTBOX_GRACE_MS = 30_000;

/** How often raw events past retention and unnamed summary parts are deleted (operations/housekeep.ts). */
export const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

/** The drift-watch job's schedule (see docs/adoption-model.md, "Drift watch job"). */
export interface DriftWatchConfig {
  readonly intervalMs: number;
  readonly rescanMs: number;
  readonly leaseMs: number;
}

/** The outbox relay's schedule (see docs/adoption-model.md, "The outbox of milestone.completed"). */
export interface OutboxConfig {
  readonly intervalMs: number;
  readonly graceMs: number;
}

/** The housekeeping job's schedule (see docs/adoption-model.md, "Housekeeping"). */
export interface HousekeepingConfig {
  readonly intervalMs: number;
}

export type { DomainStreamConfig } from '@tap/config';

/** What runConsumingService reads (host, ports, MongoDB, NATS, Redis, tokens, TLS, …) and the service's own. */
export interface AdoptionConfig extends ConsumingServiceConfig {
  readonly events: EventsConfig;
  /** The domain stream adoption's outbound events go to (docs/notifications.md, "Producers: adoption"). */
  readonly domain: DomainStreamConfig;
  readonly driftWatch: DriftWatchConfig;
  readonly outbox: OutboxConfig;
  readonly housekeeping: HousekeepingConfig;
}

/** Reads and validates the environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): AdoptionConfig {
  const e = parseEnv(env, {
    ...consumingServiceEnv({
      prefix: 'ADOPTION',
      name: 'adoption',
      grpcPort: DEFAULT_GRPC_PORT,
      httpPort: DEFAULT_HTTP_PORT,
    }),
    ADOPTION_DRIFT_INTERVAL_MS: durationMs({ default: DEFAULT_DRIFT_INTERVAL_MS }),
    ADOPTION_DRIFT_RESCAN_MS: durationMs({ default: DEFAULT_DRIFT_RESCAN_MS }),
    ADOPTION_DRIFT_LEASE_MS: durationMs({ default: DEFAULT_DRIFT_LEASE_MS }),
    ADOPTION_OUTBOX_INTERVAL_MS: durationMs({ default: DEFAULT_OUTBOX_INTERVAL_MS }),
    ADOPTION_OUTBOX_GRACE_MS: durationMs({ default: DEFAULT_OUTBOX_GRACE_MS }),
    ADOPTION_HOUSEKEEPING_INTERVAL_MS: durationMs({ default: DEFAULT_HOUSEKEEPING_INTERVAL_MS }),
  });
  // A republish must land inside the stream's duplicate window to be stored once: the relay
  // sends at most grace + interval after the completion (barring a backlog or an outage).
  if (e.ADOPTION_OUTBOX_GRACE_MS + e.ADOPTION_OUTBOX_INTERVAL_MS >= e.EVENTS_DUPLICATE_WINDOW_MS) {
    throw new ConfigError([
      {
        variable: 'ADOPTION_OUTBOX_GRACE_MS',
        problem: 'plus ADOPTION_OUTBOX_INTERVAL_MS must be shorter than EVENTS_DUPLICATE_WINDOW_MS',
      },
    ]);
  }
  return Object.freeze({
    ...consumingServiceFromEnv('ADOPTION', e),
    driftWatch: Object.freeze({
      intervalMs: e.ADOPTION_DRIFT_INTERVAL_MS,
      rescanMs: e.ADOPTION_DRIFT_RESCAN_MS,
      leaseMs: e.ADOPTION_DRIFT_LEASE_MS,
    }),
    outbox: Object.freeze({
      intervalMs: e.ADOPTION_OUTBOX_INTERVAL_MS,
      graceMs: e.ADOPTION_OUTBOX_GRACE_MS,
    }),
    housekeeping: Object.freeze({ intervalMs: e.ADOPTION_HOUSEKEEPING_INTERVAL_MS }),
  });
}
