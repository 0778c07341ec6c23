import { TapClientError } from '../errors.js';
import { singleFlight, type AuthContext, type AuthStrategy } from './strategy.js';

/** A user's bearer session, as `POST /api/v1/auth/login` and `/auth/refresh` return it. */
export interface UserTokens {
  readonly accessToken: string;
  readonly refreshToken: string;
}

export interface UserTokensOptions {
  readonly tokens: UserTokens;
  /**
   * Called with every new pair. The refresh token rotates: the previous one is spent, so a caller
   * that keeps the session (a CLI's token file) must store this pair.
   */
  readonly onRefresh?: (tokens: UserTokens) => void;
  /** Called once when the session cannot be refreshed any more (sign in again). */
  readonly onSessionExpired?: () => void;
}

interface RefreshAnswer {
  readonly data?: { readonly accessToken?: unknown; readonly refreshToken?: unknown };
}

/**
 * A user's bearer tokens: on a 401 the refresh token is exchanged once
 * (`POST /api/v1/auth/refresh`, which rotates it) and the request is sent again.
 */
export function userTokens(options: UserTokensOptions): AuthStrategy {
  let tokens = options.tokens;
  let expired = false;

  const refresh = singleFlight(async (context: AuthContext): Promise<boolean> => {
    if (expired) return false;
    const response = await context.send(
      new Request(`${context.baseUrl}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refreshToken: tokens.refreshToken }),
      }),
    );
    const answer = (await response.json().catch(() => ({}))) as RefreshAnswer;
    const { accessToken, refreshToken } = answer.data ?? {};
    if (response.status !== 200 || typeof accessToken !== 'string' || typeof refreshToken !== 'string') {
      expired = true;
      options.onSessionExpired?.();
      return false;
    }
    tokens = { accessToken, refreshToken };
    options.onRefresh?.(tokens);
    return true;
  });

  return {
    async authorize(request) {
      if (expired) throw new TapClientError('SESSION_EXPIRED', 'the session has ended; sign in again');
      request.headers.set('authorization', `Bearer ${tokens.accessToken}`);
      return tokens.accessToken;
    },
    async renew(used, context) {
      // A concurrent request already refreshed: send again with the new token, no second refresh.
      if (used !== tokens.accessToken) return !expired;
      return refresh(context);
    },
  };
}
