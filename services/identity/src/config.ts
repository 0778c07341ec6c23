import { deriveTokenHashSecret } from '@tap/tokens';
import type { TlsFiles } from '@tap/grpc-kit';
import { GRPC_TLS_ENV, grpcTlsFromEnv } from '@tap/service-auth';
import {
  ConfigError,
  DOMAIN_STREAM_ENV,
  domainStreamFromEnv,
  durationMs,
  httpUrl,
  parseEnv,
  redisUrl,
  secret,
  serviceEnv,
  serviceFromEnv,
  str,
  natsUrl,
  TELEMETRY_ENV,
  telemetryFromEnv,
} from '@tap/config';

export const DEFAULT_GRPC_PORT = 50051;
export const DEFAULT_HTTP_PORT = 8081;
/** How long the immediate parent of a session's refresh token is still honoured (lost response, two tabs). */
export const DEFAULT_REFRESH_REUSE_GRACE_MS = 30_000;
/** How often the outbox relay publishes the domain events and audit entries the bus did not confirm. */
export const DEFAULT_OUTBOX_RELAY_INTERVAL_MS = 5_000;

export interface IdentityConfig {
  readonly serviceName: 'identity';
  readonly host: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly mongo: { readonly url: string; readonly database: string };
  readonly tokens: {
    readonly issuer: string;
    readonly audience: string;
    readonly keyEncryptionSecret: string;
    /**
     * Set only while KEY_ENCRYPTION_SECRET is being rotated: keys sealed under it still open, and
     * identity re-seals them under the current secret when it starts.
     */
    readonly keyEncryptionSecretPrevious?: string | undefined;
    readonly keyRetentionMs: number;
  };
  readonly operatorToken: string;
  /** Accepted alongside OPERATOR_TOKEN while it is being rotated. */
  readonly operatorTokenPrevious: string | undefined;
  /**
   * Keys the HMACs of refresh tokens and OAuth client secrets. When TOKEN_HASH_SECRET is not set
   * it is derived from KEY_ENCRYPTION_SECRET (HKDF with its own label), so one secret suffices.
   */
  readonly tokenHashSecret: string | undefined;
  /**
   * Set only while TOKEN_HASH_SECRET is being rotated: hashes made under it still match, and a
   * client secret that matches under it is re-hashed under TOKEN_HASH_SECRET. Nothing new is
   * hashed with it.
   */
  readonly tokenHashSecretPrevious: string | undefined;
  readonly sessions: { readonly refreshReuseGraceMs: number };
  /** Where the revocation marks go that the gateway checks (logout, refresh reuse, OAuth clients). */
  readonly redis: { readonly url: string };
  /** Entitlements' gRPC address: its seat ledger is asked before any user becomes active. */
  readonly entitlementsAddress: string;
  /**
   * The domain events (member.*, oauth_client.*, audit.entry_recorded) go to this stream through
   * identity's outboxes; identity stays ready while NATS is down (docs/identity.md, "Domain events").
   */
  readonly domainEvents: {
    readonly natsUrl: string;
    readonly streamName: string;
    readonly subjectPrefix: string;
    readonly relayIntervalMs: number;
  };
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
  /** mTLS certificate, key and CA files (GRPC_TLS_*), read again as they rotate. */
  readonly grpcTls: TlsFiles;
  /** Magic-link mail over SMTP; unset SMTP_URL means no links are sent (docs/browser-sessions.md). */
  readonly mail:
    | {
        readonly smtpUrl: string;
        readonly from: string;
        readonly magicLinkUrl: string;
        /** The console's invitation page; `/console/accept-invitation` on MAGIC_LINK_URL's origin when unset. */
        readonly invitationUrl?: string | undefined;
      }
    | undefined;
}

/** Reads and validates identity's environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): IdentityConfig {
  const e = parseEnv(env, {
    ...GRPC_TLS_ENV,
    ...serviceEnv('IDENTITY', {
      grpcPort: DEFAULT_GRPC_PORT,
      httpPort: DEFAULT_HTTP_PORT,
      database: 'identity',
    }),
    TOKEN_ISSUER: str({ default: 'https://identity.tap.local' }),
    TOKEN_AUDIENCE: str({ default: 'tap-api' }),
    KEY_ENCRYPTION_SECRET: secret(32)(),
    KEY_ENCRYPTION_SECRET_PREVIOUS: secret(32)({ default: undefined }),
    SIGNING_KEY_RETENTION_MS: durationMs({ default: 24 * 3_600_000 }),
    OPERATOR_TOKEN: secret(32)(),
    OPERATOR_TOKEN_PREVIOUS: secret(32)({ default: undefined }),
    TOKEN_HASH_SECRET: secret(32)({ default: undefined }),
    TOKEN_HASH_SECRET_PREVIOUS: secret(32)({ default: undefined }),
    REFRESH_REUSE_GRACE_MS: durationMs({ default: DEFAULT_REFRESH_REUSE_GRACE_MS }),
    REDIS_URL: redisUrl({ default: 'redis://127.0.0.1:6379' }),
    ENTITLEMENTS_GRPC_ADDRESS: str({ default: '127.0.0.1:50053' }),
    NATS_URL: natsUrl({ default: 'nats://127.0.0.1:4222' }),
    ...DOMAIN_STREAM_ENV,
    IDENTITY_OUTBOX_RELAY_INTERVAL_MS: durationMs({ default: DEFAULT_OUTBOX_RELAY_INTERVAL_MS }),
    ...TELEMETRY_ENV,
    SMTP_URL: str({ default: '' }),
    MAIL_FROM: str({ default: 'TAP <no-reply@tap.local>' }),
    MAGIC_LINK_URL: httpUrl({ default: 'http://localhost:3000/auth/magic-link' }),
    INVITATION_URL: httpUrl({ default: undefined }),
  });
  const issues = [...tokenHashSecretIssues(e)];
  if (issues.length > 0) throw new ConfigError(issues);
  return Object.freeze({
    grpcTls: Object.freeze(grpcTlsFromEnv(e)),
    serviceName: 'identity',
    ...serviceFromEnv('IDENTITY', e),
    tokens: Object.freeze({
      issuer: e.TOKEN_ISSUER,
      audience: e.TOKEN_AUDIENCE,
      keyEncryptionSecret: e.KEY_ENCRYPTION_SECRET,
      keyEncryptionSecretPrevious: e.KEY_ENCRYPTION_SECRET_PREVIOUS,
      keyRetentionMs: e.SIGNING_KEY_RETENTION_MS,
    }),
    operatorToken: e.OPERATOR_TOKEN,
    operatorTokenPrevious: e.OPERATOR_TOKEN_PREVIOUS,
    tokenHashSecret: e.TOKEN_HASH_SECRET,
    tokenHashSecretPrevious: e.TOKEN_HASH_SECRET_PREVIOUS,
    sessions: Object.freeze({ refreshReuseGraceMs: e.REFRESH_REUSE_GRACE_MS }),
    redis: Object.freeze({ url: e.REDIS_URL }),
    entitlementsAddress: e.ENTITLEMENTS_GRPC_ADDRESS,
    domainEvents: Object.freeze({
      natsUrl: e.NATS_URL,
      ...domainStreamFromEnv(e),
      relayIntervalMs: e.IDENTITY_OUTBOX_RELAY_INTERVAL_MS,
    }),
    ...telemetryFromEnv(e),
    mail: e.SMTP_URL
      ? Object.freeze({
          smtpUrl: e.SMTP_URL,
          from: e.MAIL_FROM,
          magicLinkUrl: e.MAGIC_LINK_URL,
          invitationUrl: e.INVITATION_URL,
        })
      : undefined,
  });
}

/**
 * An unset TOKEN_HASH_SECRET is derived from KEY_ENCRYPTION_SECRET: rotating that secret would
 * silently change it, and every stored refresh-token, client-secret and magic-link hash would
 * stop matching. So a rotation (KEY_ENCRYPTION_SECRET_PREVIOUS set) needs it pinned to the value
 * derived from the previous secret; the value derived from the new one is as wrong as none.
 *
 * TOKEN_HASH_SECRET_PREVIOUS does not relax that rule: deriving a previous hash secret from
 * KEY_ENCRYPTION_SECRET_PREVIOUS would tie the hash window (refresh tokens live 7 days, client
 * secrets until their next use) to the key-encryption window (one roll), and the two secrets
 * would again be rotated together. So TOKEN_HASH_SECRET_PREVIOUS is accepted only next to an
 * explicit TOKEN_HASH_SECRET: each secret is rotated on its own, one at a time or both at once.
 */
function tokenHashSecretIssues(e: {
  KEY_ENCRYPTION_SECRET: string;
  KEY_ENCRYPTION_SECRET_PREVIOUS: string | undefined;
  TOKEN_HASH_SECRET: string | undefined;
  TOKEN_HASH_SECRET_PREVIOUS: string | undefined;
}): { variable: string; problem: string }[] {
  const issues: { variable: string; problem: string }[] = [];
  if (e.TOKEN_HASH_SECRET_PREVIOUS !== undefined && e.TOKEN_HASH_SECRET === undefined)
    issues.push({
      variable: 'TOKEN_HASH_SECRET_PREVIOUS',
      problem:
        'is set while TOKEN_HASH_SECRET is not: a rotation of TOKEN_HASH_SECRET needs both set (the current value in TOKEN_HASH_SECRET, the one being rotated out here)',
    });
  const previous = e.KEY_ENCRYPTION_SECRET_PREVIOUS;
  if (previous === undefined || previous === e.KEY_ENCRYPTION_SECRET) return issues;
  if (e.TOKEN_HASH_SECRET === undefined) {
    issues.push({
      variable: 'TOKEN_HASH_SECRET',
      problem:
        'is required while KEY_ENCRYPTION_SECRET_PREVIOUS is set (unset, it is derived from KEY_ENCRYPTION_SECRET and would change with it): pin it first to what `tap token-hash-secret` prints with KEY_ENCRYPTION_SECRET set to the previous secret',
    });
  } else if (e.TOKEN_HASH_SECRET === deriveTokenHashSecret(e.KEY_ENCRYPTION_SECRET)) {
    issues.push({
      variable: 'TOKEN_HASH_SECRET',
      problem:
        'is the value derived from the new KEY_ENCRYPTION_SECRET; pin the one derived from the previous secret (KEY_ENCRYPTION_SECRET_PREVIOUS), which the stored hashes were made with',
    });
  }
  return issues;
}
