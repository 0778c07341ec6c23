import {
  generalErrorBody,
  oauthErrorBody,
  rateLimitBody,
  rateLimitHeaders,
  retryAfterHeader,
  wwwAuthenticateHeader,
} from './error-bodies.js';

/**
 * Which error edge answers a route, and so which body each status carries:
 * - `api`: the general error handler (`{ success: false, error }`); bearer refusals from the
 *   authenticate hook are OAuth-style (401 always, 403 for a missing scope, 400 `invalid_request`
 *   for ambiguous credentials: two Authorization headers, or a bearer beside the session cookie);
 * - `oauth`: the public token endpoints (`useOAuthErrors`): OAuth-style for everything, except a
 *   403 from the authenticate hook (CSRF, role) that keeps the general body;
 * - `browser`: /auth/v2 (`useV2Errors`): the general body, the rate-limit body on 429, and the
 *   OAuth-style 400 of ambiguous credentials (refused on every route before its own checks).
 */
export type ErrorStyle = 'api' | 'oauth' | 'browser';

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 429 | 503;

const DESCRIPTIONS: Readonly<Record<ErrorStatus, string>> = {
  400: 'Bad request: the body, path or query is not valid, or the credentials are ambiguous',
  401: 'Missing, expired, malformed or revoked credentials',
  403: 'Authenticated but not allowed (scope, role, origin, CSRF or tier)',
  404: 'No such resource for this tenant',
  409: 'Conflict with the current state (stale version, an active plan)',
  413: 'The request body is larger than the limit',
  415: 'The Content-Type is not accepted here',
  429: 'Rate limit exceeded: wait Retry-After seconds',
  503: 'A dependency is unavailable: retry after Retry-After seconds',
};

const either = (...bodies: object[]) => ({ anyOf: bodies });

function bodyOf(style: ErrorStyle, status: ErrorStatus): object {
  // Ambiguous credentials are refused OAuth-style on every route, before the route's own checks.
  if (status === 400 && style !== 'oauth') return either(generalErrorBody, oauthErrorBody);
  if (style === 'api') {
    if (status === 401) return oauthErrorBody;
    if (status === 403) return either(generalErrorBody, oauthErrorBody);
    if (status === 429) return either(rateLimitBody, generalErrorBody);
    return generalErrorBody;
  }
  if (style === 'oauth') {
    if (status === 403) return either(oauthErrorBody, generalErrorBody);
    return oauthErrorBody;
  }
  if (status === 429) return either(rateLimitBody, generalErrorBody);
  return generalErrorBody;
}

function headersOf(style: ErrorStyle, status: ErrorStatus): object | undefined {
  if (status === 429) return { ...rateLimitHeaders, ...retryAfterHeader };
  if (status === 503) return retryAfterHeader;
  if (status === 401 && style !== 'browser') return wwwAuthenticateHeader;
  if (status === 403 && style !== 'browser') return wwwAuthenticateHeader;
  return undefined;
}

/** Fastify-style response schemas (`description`, `headers` and the body) for each error status. */
export function errorResponses(style: ErrorStyle, statuses: readonly ErrorStatus[]): Record<string, object> {
  const responses: Record<string, object> = {};
  for (const status of statuses) {
    const headers = headersOf(style, status);
    responses[String(status)] = {
      description: DESCRIPTIONS[status],
      ...(headers ? { headers } : {}),
      ...bodyOf(style, status),
    };
  }
  return responses;
}
