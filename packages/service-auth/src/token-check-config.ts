import { durationMs, redisUrl, str } from '@tap/config';
import { DEFAULT_JWKS_REFRESH_INTERVAL_MS } from '@tap/tokens';

/**
 * The variables of every service that checks user tokens itself (identity's key set over gRPC,
 * the logout revocation list on Redis), to spread into its parseEnv specs beside GRPC_TLS_ENV.
 */
export const TOKEN_CHECK_ENV = {
  IDENTITY_GRPC_ADDRESS: str({ default: '127.0.0.1:50051' }),
  TOKEN_ISSUER: str({ default: 'https://identity.tap.local' }),
  TOKEN_AUDIENCE: str({ default: 'tap-api' }),
  JWKS_REFRESH_INTERVAL_MS: durationMs({ default: DEFAULT_JWKS_REFRESH_INTERVAL_MS }),
  REDIS_URL: redisUrl({ default: 'redis://127.0.0.1:6379' }),
};

/** Where a service checks tokens: identity's address, the token rules and the revocation list. */
export interface TokenCheckConfig {
  readonly identityAddress: string;
  readonly tokens: {
    readonly issuer: string;
    readonly audience: string;
    /** How often identity's key set is refetched: a key retired at once stops verifying within it. */
    readonly jwksRefreshIntervalMs: number;
  };
  /** The revocation list every user token is checked against (fails closed). */
  readonly redis: { readonly url: string };
}

/** The parsed TOKEN_CHECK_ENV as the service config's fields. */
export function tokenCheckFromEnv(e: {
  IDENTITY_GRPC_ADDRESS: string;
  TOKEN_ISSUER: string;
  TOKEN_AUDIENCE: string;
  JWKS_REFRESH_INTERVAL_MS: number;
  REDIS_URL: string;
}): TokenCheckConfig {
  return {
    identityAddress: e.IDENTITY_GRPC_ADDRESS,
    tokens: Object.freeze({
      issuer: e.TOKEN_ISSUER,
      audience: e.TOKEN_AUDIENCE,
      jwksRefreshIntervalMs: e.JWKS_REFRESH_INTERVAL_MS,
    }),
    redis: Object.freeze({ url: e.REDIS_URL }),
  };
}
