import { durationMs, httpUrl, listenPort, mongoUrl, parseEnv, secret, str, identifier } from '@tap/config';

export const DEFAULT_GRPC_PORT = 50051;
export const DEFAULT_HTTP_PORT = 8081;

export interface IdentityConfig {
  readonly serviceName: 'identity';
  readonly host: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly mongo: { readonly url: string; readonly database: string };
  readonly tokens: { readonly issuer: string; readonly audience: string; readonly keyEncryptionSecret: string; readonly keyRetentionMs: number };
  readonly operatorToken: string;
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
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
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl({ default: undefined }),
    LOG_LEVEL: str({ default: 'info', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }),
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
    otlpTracesUrl: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    logLevel: e.LOG_LEVEL,
  });
}
