import { TapClientError } from '../errors.js';
import { singleFlight, type AuthContext, type AuthStrategy } from './strategy.js';

export interface ClientCredentialsOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * The scopes this integration needs, and no more (the spec: "request the minimum scope").
   * Sent as `scope`; the token carries only these.
   */
  readonly scopes: readonly string[];
  /**
   * How long before expiry a cached token is replaced, in ms (at most half its lifetime).
   * Default {@link DEFAULT_RENEW_BEFORE_EXPIRY_MS}.
   */
  readonly renewBeforeExpiryMs?: number;
}

/** A minute: a token is not sent in its last minute, so clock skew and latency cannot expire it in flight. */
export const DEFAULT_RENEW_BEFORE_EXPIRY_MS = 60_000;

interface CachedToken {
  readonly value: string;
  /** When to fetch the next one (ms since the epoch). */
  readonly renewAt: number;
}

interface TokenAnswer {
  readonly access_token?: unknown;
  readonly expires_in?: unknown;
}

/**
 * OAuth 2.0 client credentials (`POST /api/v1/oauth/token`): one token cached and reused until
 * shortly before it expires, then replaced; a 401 drops it and fetches a new one once.
 */
export function clientCredentials(options: ClientCredentialsOptions): AuthStrategy {
  const renewBefore = options.renewBeforeExpiryMs ?? DEFAULT_RENEW_BEFORE_EXPIRY_MS;
  let cached: CachedToken | undefined;

  const request = singleFlight(async (context: AuthContext): Promise<CachedToken> => {
    const body = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    if (options.scopes.length > 0) body.set('scope', options.scopes.join(' '));
    const response = await context.send(
      new Request(`${context.baseUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
      }),
    );
    const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
    if (!response.ok || typeof answer.access_token !== 'string' || typeof answer.expires_in !== 'number') {
      throw new TapClientError(
        'TOKEN_REQUEST_FAILED',
        `token request answered ${response.status}`,
        response.status,
      );
    }
    const lifetimeMs = answer.expires_in * 1_000;
    const token = {
      value: answer.access_token,
      renewAt: context.now() + lifetimeMs - Math.min(renewBefore, lifetimeMs / 2),
    };
    cached = token;
    return token;
  });

  const current = async (context: AuthContext): Promise<string> => {
    if (cached && context.now() < cached.renewAt) return cached.value;
    return (await request(context)).value;
  };

  return {
    async authorize(req, context) {
      const token = await current(context);
      req.headers.set('authorization', `Bearer ${token}`);
      return token;
    },
    async renew(used, context) {
      // Another request may have replaced it already; only a token still cached is dropped.
      if (cached?.value === used) cached = undefined;
      await current(context);
      return true;
    },
  };
}
