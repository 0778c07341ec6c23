import type { HttpError } from './http-error.js';

/**
 * Every code the gateway decides itself, with its status and default message: the one list of
 * what the HTTP edge can answer in the general body `{ success: false, error: { code, message,
 * details? } }` (docs/api.md, "Errors"). Codes a downstream service decided (its own catalogue's
 * reasons) are forwarded unchanged by {@link forwardedError}, not listed here.
 *
 * Not @tap/errors' `defineErrors`: that catalogue is transport-neutral (a kind per code, mapped to
 * a status at each edge); this one *is* the edge, so it holds statuses and wire bodies.
 */
export const GATEWAY_ERRORS = {
  VALIDATION_FAILED: { status: 400, message: 'The request is not valid' },
  INVALID_JSON: { status: 400, message: 'The body is not valid JSON' },
  INVALID_REQUEST: { status: 400, message: 'The request could not be processed' },
  INVALID_URL: { status: 400, message: 'The path is not a valid URL' },
  PATH_PARAMETER_TOO_LONG: { status: 400, message: 'A path parameter is longer than allowed' },
  INVALID_OR_EXPIRED: { status: 400, message: 'The link is invalid or has expired' },
  REFRESH_TOKEN_INVALID: { status: 401, message: 'There is no session to refresh' },
  ROLE_FORBIDDEN: { status: 403, message: 'Your role may not do this' },
  CSRF_TOKEN_INVALID: { status: 403, message: 'The X-CSRF-Token header does not match the session' },
  ORIGIN_NOT_ALLOWED: { status: 403, message: 'Requests from this origin are not allowed' },
  API_ACCESS_NOT_IN_TIER: { status: 403, message: 'Your plan does not include API access' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such route' },
  // A known path asked with a method it does not serve; sent with `Allow` (plugins/method-not-allowed.ts).
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed on this path' },
  BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Send application/json' },
  // The one code with a body of its own: `{ error, message, retryAfter }` (spec "Rate limits").
  RATE_LIMIT_EXCEEDED: { status: 429, message: 'Too many requests' },
  INTERNAL: { status: 500, message: 'Something went wrong on our side' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Try again shortly' },
} as const satisfies Readonly<Record<string, { readonly status: number; readonly message: string }>>;

export type GatewayErrorCode = Exclude<keyof typeof GATEWAY_ERRORS, 'RATE_LIMIT_EXCEEDED'>;

/**
 * The OAuth-style codes of the token endpoints and bearer challenges, `{ error, error_description }`.
 * Their names are fixed by RFC 6749 §5.2 and RFC 6750 §3.1 (lower_snake), not by our house style.
 */
export const OAUTH_ERRORS = {
  invalid_request: { status: 400, message: 'The request is malformed' },
  invalid_scope: { status: 400, message: 'The requested scope is not granted' },
  unsupported_grant_type: { status: 400, message: 'This grant type is not supported' },
  invalid_client: { status: 401, message: 'Client authentication failed' },
  invalid_token: { status: 401, message: 'The access token is expired, malformed or revoked' },
  insufficient_scope: { status: 403, message: 'The token does not grant this request' },
  rate_limit_exceeded: { status: 429, message: 'Too many requests' },
  server_error: { status: 500, message: 'Something went wrong on our side' },
  temporarily_unavailable: { status: 503, message: 'Try again shortly' },
} as const satisfies Readonly<Record<string, { readonly status: number; readonly message: string }>>;

export type OAuthErrorCode = keyof typeof OAUTH_ERRORS;

/** Every 503 says when to come back: a dependency outage is short or it is an incident. */
const RETRY_SOON = { 'retry-after': '1' } as const;

export interface ErrorOptions {
  /** Replaces the catalogue's message (below 500 only: a 5xx never describes its cause). */
  readonly message?: string;
  readonly details?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** Only for `INVALID_REQUEST` standing for a 4xx the framework itself decided. */
  readonly status?: number;
}

/** The general body for a gateway `code`, with the catalogue's status and message. */
export function gatewayError(code: GatewayErrorCode, options: ErrorOptions = {}): HttpError {
  const entry = GATEWAY_ERRORS[code];
  const status = options.status ?? entry.status;
  const message = status >= 500 ? entry.message : (options.message ?? entry.message);
  const headers = status === 503 ? { ...RETRY_SOON, ...options.headers } : options.headers;
  return {
    status,
    body: {
      success: false,
      error: { code, message, ...(options.details === undefined ? {} : { details: options.details }) },
    },
    ...(headers ? { headers } : {}),
  };
}

/**
 * A refusal a downstream service decided, in the general body: its reason is its own catalogue's
 * code and passes through unchanged (`fallback` when it sent none); `status` is the gateway's
 * mapping of it (map-error.ts).
 */
export function forwardedError(
  status: number,
  reason: string | undefined,
  fallback: 'ERROR' | 'UNAUTHENTICATED',
  message: string,
  details?: unknown,
): HttpError {
  return {
    status,
    body: {
      success: false,
      error: { code: reason ?? fallback, message, ...(details === undefined ? {} : { details }) },
    },
  };
}

/** The spec's rate-limit body `{ error: 'RATE_LIMIT_EXCEEDED', message, retryAfter }` with Retry-After. */
export function rateLimitExceeded(
  message: string,
  retryAfter: number,
  headers: Readonly<Record<string, string>> = {},
): HttpError {
  return {
    status: GATEWAY_ERRORS.RATE_LIMIT_EXCEEDED.status,
    body: { error: 'RATE_LIMIT_EXCEEDED', message, retryAfter },
    headers: { ...headers, 'retry-after': String(retryAfter) },
  };
}

/** The OAuth-style body for `code`, with the catalogue's status unless the RFC leaves it open. */
export function oauthError(
  code: OAuthErrorCode,
  description: string = OAUTH_ERRORS[code].message,
  options: { readonly headers?: Readonly<Record<string, string>>; readonly status?: number } = {},
): HttpError {
  const status = options.status ?? OAUTH_ERRORS[code].status;
  const headers = status === 503 ? { ...RETRY_SOON, ...options.headers } : options.headers;
  return {
    status,
    body: { error: code, error_description: description },
    ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
  };
}
