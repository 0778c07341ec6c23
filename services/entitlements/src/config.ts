import { httpUrl, identifier, listenPort, mongoUrl, parseEnv, secret, str } from '@tap/config';

export const DEFAULT_GRPC_PORT = 50053;
export const DEFAULT_HTTP_PORT = 8083;

export interface EntitlementsConfig {
  readonly host: string;
  readonly grpcPort: number;
  readonly httpPort: number;
  readonly mongo: { readonly url: string; readonly database: string };
  readonly identityAddress: string;
  readonly tokens: { readonly issuer: string; readonly audience: string };
  readonly operatorToken: string;
  readonly otlpTracesUrl: string | undefined;
  readonly logLevel: string;
}

/** Reads and validates the environment once; throws ConfigError listing every bad variable. */
export function loadConfig(env: Readonly<Record<string, string | undefined>>): EntitlementsConfig {
  const e = parseEnv(env, {
    HOST: str({ default: '127.0.0.1' }),
    ENTITLEMENTS_GRPC_PORT: listenPort({ default: DEFAULT_GRPC_PORT }),
    ENTITLEMENTS_HTTP_PORT: listenPort({ default: DEFAULT_HTTP_PORT }),
    MONGO_URL: mongoUrl(),
    ENTITLEMENTS_MONGO_DB: identifier({ default: 'entitlements' }),
    IDENTITY_GRPC_ADDRESS: str({ default: '127.0.0.1:50051' }),
    TOKEN_ISSUER: str({ default: 'https://identity.tap.local' }),
    TOKEN_AUDIENCE: str({ default: 'tap-api' }),
    OPERATOR_TOKEN: secret(32)(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: httpUrl({ default: undefined }),
    LOG_LEVEL: str({ default: 'info', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] }),
  });
  return Object.freeze({
    host: e.HOST,
    grpcPort: e.ENTITLEMENTS_GRPC_PORT,
    httpPort: e.ENTITLEMENTS_HTTP_PORT,
    mongo: Object.freeze({ url: e.MONGO_URL, database: e.ENTITLEMENTS_MONGO_DB }),
    identityAddress: e.IDENTITY_GRPC_ADDRESS,
    tokens: Object.freeze({ issuer: e.TOKEN_ISSUER, audience: e.TOKEN_AUDIENCE }),
    operatorToken: e.OPERATOR_TOKEN,
    otlpTracesUrl: e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    logLevel: e.LOG_LEVEL,
  });
}
