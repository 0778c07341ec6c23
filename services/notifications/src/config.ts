import {
  csv,
  type DomainStreamConfig,
  durationMs,
  parseEnv,
  secret,
  str,
  type EventsConfig,
} from '@tap/config';
import { EnvError, makeValidator } from 'envalid';
import { consumingServiceEnv, consumingServiceFromEnv, type ConsumingServiceConfig } from '@tap/runtime';
import {
  DEFAULT_DISABLE_AFTER_FAILING_MS,
  DEFAULT_RETRY_SCHEDULE_MS,
  MAX_AUDIT_RANGE_MS,
} from './domain/index.js';
import { DEFAULT_FEED_RETENTION_MS } from './operations/prune-feed.js';
import { DEFAULT_DELIVERY_LOG_RETENTION_MS } from './operations/prune-delivery-log.js';

export type { DomainStreamConfig, EventsConfig } from '@tap/config';

export const DEFAULT_GRPC_PORT = 50054;
export const DEFAULT_HTTP_PORT = 8084;
/** A receiver gets this long to answer an attempt. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** After a rotation the old secret keeps signing (beside the new one) this long. */
export const DEFAULT_ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** Attempts in flight at once in one process, and for one endpoint. */
export const DEFAULT_MAX_IN_FLIGHT = 32;
export const DEFAULT_MAX_IN_FLIGHT_PER_ENDPOINT = 4;
/**
 * How long a claimed delivery is the claimer's: past it, another worker (or this one after a
 * restart) takes it again. Longer than the attempt timeout, so a live attempt is never doubled.
 */
export const DEFAULT_CLAIM_LEASE_MS = 60_000;
/** How often an idle worker looks at the queue (a due retry waits at most this long past its time). */
export const DEFAULT_POLL_INTERVAL_MS = 500;
/** How often the clean-up job prunes the feed. */
export const DEFAULT_CLEANUP_INTERVAL_MS = 3_600_000;

export interface WebhookConfig {
  /** Seals signing secrets at rest; never logged. */
  readonly secretEncryptionKey: string;
  /**
   * Hosts allowed although they resolve to loopback or private ranges, and over plain http:
   * empty by default; tests and `npm run up` set it to reach a local receiver.
   */
  readonly devAllowedHosts: readonly string[];
  readonly retryScheduleMs: readonly number[];
  readonly timeoutMs: number;
  readonly rotationOverlapMs: number;
  readonly disableAfterFailingMs: number;
  readonly maxInFlight: number;
  readonly maxInFlightPerEndpoint: number;
  readonly pollIntervalMs: number;
  readonly claimLeaseMs: number;
}

export interface NotificationsConfig extends ConsumingServiceConfig {
  readonly events: EventsConfig;
  /** Where domain events come from. */
  readonly domain: DomainStreamConfig;
  readonly webhooks: WebhookConfig;
  readonly feedRetentionMs: number;
  readonly auditRetentionMs: number;
  readonly cleanupIntervalMs: number;
  /** Finished deliveries and the attempt log are kept this long (the clean-up job prunes). */
  readonly deliveryLogRetentionMs: number;
  /** SMTP for the mails to a tenant's OWNERs (an endpoint disabled); unset SMTP_URL sends none. */
  readonly mail: { readonly smtpUrl: string; readonly from: string } | undefined;
}

const durationList = makeValidator<readonly number[]>((input) => {
  const values = input.split(',').map((v) => Number(v.trim()));
  if (values.length === 0 || values.some((v) => !Number.isSafeInteger(v) || v <= 0))
    throw new EnvError('must be a comma-separated list of positive whole numbers of milliseconds');
  return Object.freeze(values);
});

const count = makeValidator<number>((input) => {
  const value = Number(input);
  if (!Number.isSafeInteger(value) || value < 1 || value > 1_000)
    throw new EnvError('must be a whole number from 1 to 1000');
  return value;
});

/** Reads and validates the environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): NotificationsConfig {
  const e = parseEnv(env, {
    ...consumingServiceEnv({
      prefix: 'NOTIFICATIONS',
      name: 'notifications',
      grpcPort: DEFAULT_GRPC_PORT,
      httpPort: DEFAULT_HTTP_PORT,
    }),
    WEBHOOK_SECRET_ENCRYPTION_KEY: secret(32)(),
    WEBHOOK_DEV_ALLOWED_HOSTS: csv({ default: [] }),
    WEBHOOK_RETRY_SCHEDULE_MS: durationList({ default: DEFAULT_RETRY_SCHEDULE_MS }),
    WEBHOOK_TIMEOUT_MS: durationMs({ default: DEFAULT_WEBHOOK_TIMEOUT_MS }),
    WEBHOOK_ROTATION_OVERLAP_MS: durationMs({ default: DEFAULT_ROTATION_OVERLAP_MS }),
    WEBHOOK_DISABLE_AFTER_MS: durationMs({ default: DEFAULT_DISABLE_AFTER_FAILING_MS }),
    WEBHOOK_MAX_IN_FLIGHT: count({ default: DEFAULT_MAX_IN_FLIGHT }),
    WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: count({ default: DEFAULT_MAX_IN_FLIGHT_PER_ENDPOINT }),
    WEBHOOK_POLL_INTERVAL_MS: durationMs({ default: DEFAULT_POLL_INTERVAL_MS }),
    WEBHOOK_CLAIM_LEASE_MS: durationMs({ default: DEFAULT_CLAIM_LEASE_MS }),
    FEED_RETENTION_MS: durationMs({ default: DEFAULT_FEED_RETENTION_MS }),
    AUDIT_RETENTION_MS: durationMs({ default: MAX_AUDIT_RANGE_MS }),
    NOTIFICATIONS_CLEANUP_INTERVAL_MS: durationMs({ default: DEFAULT_CLEANUP_INTERVAL_MS }),
    WEBHOOK_LOG_RETENTION_MS: durationMs({ default: DEFAULT_DELIVERY_LOG_RETENTION_MS }),
    SMTP_URL: str({ default: '' }),
    MAIL_FROM: str({ default: 'TAP <no-reply@tap.local>' }),
  });
  return Object.freeze({
    ...consumingServiceFromEnv('NOTIFICATIONS', e),
    webhooks: Object.freeze({
      secretEncryptionKey: e.WEBHOOK_SECRET_ENCRYPTION_KEY,
      devAllowedHosts: e.WEBHOOK_DEV_ALLOWED_HOSTS,
      retryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      rotationOverlapMs: e.WEBHOOK_ROTATION_OVERLAP_MS,
      disableAfterFailingMs: e.WEBHOOK_DISABLE_AFTER_MS,
      maxInFlight: e.WEBHOOK_MAX_IN_FLIGHT,
      maxInFlightPerEndpoint: e.WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT,
      pollIntervalMs: e.WEBHOOK_POLL_INTERVAL_MS,
      // A lease shorter than an attempt would let a second worker send the same delivery meanwhile.
      claimLeaseMs: Math.max(e.WEBHOOK_CLAIM_LEASE_MS, e.WEBHOOK_TIMEOUT_MS * 2),
    }),
    feedRetentionMs: e.FEED_RETENTION_MS,
    auditRetentionMs: e.AUDIT_RETENTION_MS,
    cleanupIntervalMs: e.NOTIFICATIONS_CLEANUP_INTERVAL_MS,
    deliveryLogRetentionMs: e.WEBHOOK_LOG_RETENTION_MS,
    mail: e.SMTP_URL ? Object.freeze({ smtpUrl: e.SMTP_URL, from: e.MAIL_FROM }) : undefined,
  });
}
