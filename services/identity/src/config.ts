import {
  durationMs,
  httpUrl,
  listenPort,
  mongoUrl,
  parseEnv,
  redisUrl,
  secret,
  str,
  identifier,
} from '@tap/config';

export const DEFAULT_GRPC_PORT = 50051;
export const DEFAULT_HTTP_PORT = 8081;
/** How long the immediate parent of a session's refresh token is still honoured (lost response, two tabs). */
export const DEFAULT_REFRESH_REUSE_GRACE_MS = 30_000;

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
    readonly keyRetentionMs: number;
  };
  readonly operatorToken: string;
  /**
   * Keys the HMACs of refresh tokens and OAuth client secrets. When TOKEN_HASH_SECRET is not set
   * it is derived from KEY_ENCRYPTION_SECRET (HKDF with its own label), so one secret suffices.
   */
  readonly tokenHashSecret: string | undefined;
  readonly sessions: { readonly refreshReuseGraceMs: number };
  /** Where the revocation marks go that the gateway checks (logout, refresh reuse, OAuth clients). */
  readonly redis: { readonly url: string };
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
  /** Magic-link mail over SMTP; unset SMTP_URL means no links are sent (docs/browser-sessions.md). */
  readonly mail:
    { readonly smtpUrl: string; readonly from: string; readonly magicLinkUrl: string } | undefined;
}

/** Reads and validates identity's environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): IdentityConfig {
  const e = parseEnv(env, {
    HOST: str({ default: '127.0.0.1' }),
    IDENTITY_GRPC_PORT: listenPort({ default: DEFAULT_GRPC_PORT }),
    IDENTITY_HTTP_PORT: listenPort({ default: DEFAULT_HTTP_PORT }),
    MONGO_URL: mongoUrl(),
    IDENTITY_MONGO_DB: identifier({ default: 'identity' }),
    TOKEN_ISSUER: str({ default: 'https://identity.tap.local' }),
    TOKEN_AUDIENCE: str({ default: 'tap-api' }),
    KEY_ENCRYPTION_SECRET: secret(32)(),
    SIGNING_KEY_RETENTION_MS: durationMs({ default: 24 * 3_600_000 }),
    OPERATOR_TOKEN: secret(32)(),
    TOKEN_HASH_SECRET: secret(32)({ default: undefined }),
    REFRESH_REUSE_GRACE_MS: durationMs({ default: DEFAULT_REFRESH_REUSE_GRACE_MS }),
    REDIS_URL: redisUrl({ default: 'redis://127.0.0.1:6379' }),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl({ default: undefined }),
    LOG_LEVEL: str({
      default: 'info',
      choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    }),
    SMTP_URL: str({ default: '' }),
    MAIL_FROM: str({ default: 'TAP <no-reply@tap.local>' }),
    MAGIC_LINK_URL: httpUrl({ default: 'http://localhost:3000/auth/magic-link' }),
  });
  return Object.freeze({
    serviceName: 'identity',
    host: e.HOST,
    grpcPort: e.IDENTITY_GRPC_PORT,
    httpPort: e.IDENTITY_HTTP_PORT,
    mongo: Object.freeze({ url: e.MONGO_URL, database: e.IDENTITY_MONGO_DB }),
    tokens: Object.freeze({
      issuer: e.TOKEN_ISSUER,
      audience: e.TOKEN_AUDIENCE,
      keyEncryptionSecret: e.KEY_ENCRYPTION_SECRET,
      keyRetentionMs: e.SIGNING_KEY_RETENTION_MS,
    }),
    operatorToken: e.OPERATOR_TOKEN,
    tokenHashSecret: e.TOKEN_HASH_SECRET,
    sessions: Object.freeze({ refreshReuseGraceMs: e.REFRESH_REUSE_GRACE_MS }),
    redis: Object.freeze({ url: e.REDIS_URL }),
    otlpTracesUrl: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    logLevel: e.LOG_LEVEL,
    mail: e.SMTP_URL
      ? Object.freeze({ smtpUrl: e.SMTP_URL, from: e.MAIL_FROM, magicLinkUrl: e.MAGIC_LINK_URL })
      : undefined,
  });
}
