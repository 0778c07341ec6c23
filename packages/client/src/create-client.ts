import createClient, { type Client } from 'openapi-fetch';
import { browserSession, type BrowserSessionOptions } from './auth/browser-session.js';
import { clientCredentials, type ClientCredentialsOptions } from './auth/client-credentials.js';
import { noAuth } from './auth/no-auth.js';
import type { AuthStrategy } from './auth/strategy.js';
import { userTokens, type UserTokensOptions } from './auth/user-tokens.js';
import type { paths } from './generated/schema.js';
import { createTapFetch, type TapFetchOptions } from './tap-fetch.js';

/** How the client proves who calls. */
export type TapAuth =
  | ({ readonly kind: 'clientCredentials' } & ClientCredentialsOptions)
  | ({ readonly kind: 'userTokens' } & UserTokensOptions)
  | ({ readonly kind: 'browserSession' } & BrowserSessionOptions)
  | { readonly kind: 'none' };

export interface TapClientOptions extends Omit<TapFetchOptions, 'auth' | 'baseUrl'> {
  /**
   * The API's base URL, the document's server: e.g. `http://localhost:3000/api/v1` (paths such
   * as `/tenant` are relative to it). Default `/api/v1`: the page's own origin, which is what the
   * browser session needs.
   */
  readonly baseUrl?: string;
  readonly auth: TapAuth;
}

/** The document's server URL, on the page's own origin. */
export const DEFAULT_BASE_URL = '/api/v1';

/** The typed client: `GET`, `POST`, … over the document's paths (openapi-fetch). */
export type TapClient = Client<paths>;

function strategyOf(auth: TapAuth): AuthStrategy {
  switch (auth.kind) {
    case 'clientCredentials':
      return clientCredentials(auth);
    case 'userTokens':
      return userTokens(auth);
    case 'browserSession':
      return browserSession(auth);
    case 'none':
      return noAuth();
  }
}

/**
 * A typed client of the gateway's `/api/v1`. Answers come back as `{ data, error, response }`
 * (never thrown); the client renews credentials on 401 and backs off on 429 by itself.
 */
export function createTapClient(options: TapClientOptions): TapClient {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const fetch = createTapFetch({ ...options, baseUrl, auth: strategyOf(options.auth) });
  return createClient<paths>({
    baseUrl,
    fetch,
    // The session cookies are sent to our own origin only (never `include`).
    ...(options.auth.kind === 'browserSession' ? { credentials: 'same-origin' as const } : {}),
  });
}
