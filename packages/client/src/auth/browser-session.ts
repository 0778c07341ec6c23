import { singleFlight, type AuthContext, type AuthStrategy } from './strategy.js';

/** The double-submit cookie the gateway sets beside the HttpOnly session (spec "Cookie sessions"). */
export const CSRF_COOKIE = 'svc_csrf';
export const CSRF_HEADER = 'X-CSRF-Token';

export interface BrowserSessionOptions {
  /**
   * The current `svc_csrf` value. Default: read from `document.cookie` on every call (the cookie
   * changes at each refresh). Outside a browser, pass your cookie jar's reader.
   */
  readonly csrfToken?: () => string | undefined;
  /** Called once a refresh has failed: the session is over (show the sign-in page). */
  readonly onSessionExpired?: () => void;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie's value from a `Cookie`-style string (`a=1; b=2`), or undefined. */
export function cookieValue(cookies: string, name: string): string | undefined {
  for (const pair of cookies.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === name) return decodeURIComponent(pair.slice(eq + 1).trim());
  }
  return undefined;
}

function documentCsrfToken(): string | undefined {
  const doc = (globalThis as { document?: { cookie?: string } }).document;
  return doc?.cookie === undefined ? undefined : cookieValue(doc.cookie, CSRF_COOKIE);
}

/**
 * The first-party browser session (`/auth/v2`): cookies ride along (same origin), every
 * state-changing request carries `X-CSRF-Token`, and a 401 is answered by one
 * `POST /api/v1/auth/v2/refresh` (the refresh cookie rotates) before the request is sent again.
 */
export function browserSession(options: BrowserSessionOptions = {}): AuthStrategy {
  const csrfToken = options.csrfToken ?? documentCsrfToken;
  let refreshes = 0;

  const withCsrf = (request: Request) => {
    const token = csrfToken();
    if (token !== undefined && !SAFE_METHODS.has(request.method)) request.headers.set(CSRF_HEADER, token);
  };

  const refresh = singleFlight(async (context: AuthContext): Promise<boolean> => {
    const request = new Request(`${context.baseUrl}/auth/v2/refresh`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    withCsrf(request);
    const response = await context.send(request);
    await response.body?.cancel();
    if (response.status !== 204 && response.status !== 200) {
      options.onSessionExpired?.();
      return false;
    }
    refreshes += 1;
    return true;
  });

  return {
    async authorize(request) {
      withCsrf(request);
      // The session is the cookie; what identifies "the credential used" is the refresh count.
      return String(refreshes);
    },
    async renew(used, context) {
      if (used !== String(refreshes)) return true;
      return refresh(context);
    },
  };
}
