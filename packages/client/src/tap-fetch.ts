import type { AuthContext, AuthStrategy } from './auth/strategy.js';
import { backOffDelayMs, type BackOffOptions } from './retry/back-off.js';
import { isIdempotent } from './retry/retry-safe.js';

/** Why the client is about to send a request again. */
export interface RetryEvent {
  readonly reason: 'rate_limited' | 'unauthorized';
  readonly method: string;
  readonly url: string;
  /** 1 for the first retry. */
  readonly retry: number;
  /** The wait before it, in ms (0 after a renewed credential). */
  readonly delayMs: number;
}

export interface TapFetchOptions {
  readonly baseUrl: string;
  readonly auth: AuthStrategy;
  readonly backOff?: BackOffOptions;
  /** The transport; default `globalThis.fetch`. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Milliseconds since the epoch; default `Date.now`. */
  readonly now?: () => number;
  /** How a back-off waits; default a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Sees every retry (logs, metrics, tests). */
  readonly onRetry?: (event: RetryEvent) => void;
}

const timer = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Auth endpoints answer 401 for wrong credentials, not for an expired session: refreshing and
 * sending them again would be wrong (and a refresh that answers 401 must not refresh itself).
 */
function renewsOn401(url: string, baseUrl: string): boolean {
  const { pathname } = new URL(url, 'http://relative.invalid');
  const base = new URL(baseUrl || '/', 'http://relative.invalid').pathname.replace(/\/+$/, '');
  const path = pathname.startsWith(`${base}/`) ? pathname.slice(base.length) : pathname;
  return !path.startsWith('/auth/') && path !== '/oauth/token';
}

/**
 * The fetch every client call goes through: adds the auth mode's credentials; on 401 renews them
 * once and sends again; on 429 waits (Retry-After, else doubling from 1 s) and sends again, a
 * bounded number of times, for idempotent methods only (`retryAnyMethod` for the client's own
 * token requests, which a refusal leaves undone).
 */
export function createTapFetch(options: TapFetchOptions): (request: Request) => Promise<Response> {
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? timer;

  const withBackOff = async (request: Request, retryAnyMethod: boolean): Promise<Response> => {
    const canRetry = retryAnyMethod || isIdempotent(request.method);
    for (let retry = 1; ; retry += 1) {
      const response = await transport(canRetry ? request.clone() : request);
      if (response.status !== 429 || !canRetry) return response;
      const delayMs = backOffDelayMs(retry, response.headers.get('retry-after'), now(), options.backOff);
      if (delayMs === undefined) return response;
      await response.body?.cancel();
      options.onRetry?.({ reason: 'rate_limited', method: request.method, url: request.url, retry, delayMs });
      await sleep(delayMs);
    }
  };

  const context: AuthContext = {
    baseUrl: options.baseUrl,
    send: (request) => withBackOff(request, true),
    now,
  };

  return async (request) => {
    const renewable = renewsOn401(request.url, options.baseUrl);
    const spare = renewable ? request.clone() : undefined;
    const used = await options.auth.authorize(request, context);
    const response = await withBackOff(request, false);
    if (response.status !== 401 || !spare) return response;
    if (!(await options.auth.renew(used, context))) return response;
    await response.body?.cancel();
    options.onRetry?.({
      reason: 'unauthorized',
      method: request.method,
      url: request.url,
      retry: 1,
      delayMs: 0,
    });
    await options.auth.authorize(spare, context);
    return withBackOff(spare, false);
  };
}
