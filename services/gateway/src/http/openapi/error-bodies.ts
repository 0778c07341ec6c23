/*
 * The spec's three error bodies ("Errors") and the headers that come with them, as JSON Schema
 * for the OpenAPI document. Exact where the spec is exact (`additionalProperties: false`), open
 * where a route adds fields (`details` is whatever the refusing service attached).
 */

/** `{ success: false, error: { code, message, details? } }`: every error outside the token endpoints. */
export const generalErrorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['success', 'error'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$' },
        message: { type: 'string' },
        details: {},
      },
    },
  },
  examples: [{ success: false, error: { code: 'VALIDATION_FAILED', message: 'The request is not valid' } }],
} as const;

/** `{ error, error_description }`: the OAuth-style body of authentication errors (RFC 6749 §5.2, RFC 6750 §3). */
export const oauthErrorBody = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'error_description'],
  properties: {
    error: { type: 'string', pattern: '^[a-z_]+$' },
    error_description: { type: 'string' },
  },
  examples: [
    { error: 'invalid_token', error_description: 'The access token is expired, malformed or revoked' },
  ],
} as const;

/** `{ error: 'RATE_LIMIT_EXCEEDED', message, retryAfter }`, with `Retry-After`. */
export const rateLimitBody = {
  type: 'object',
  additionalProperties: false,
  required: ['error', 'message', 'retryAfter'],
  properties: {
    error: { const: 'RATE_LIMIT_EXCEEDED' },
    message: { type: 'string' },
    retryAfter: { type: 'integer', minimum: 0 },
  },
  examples: [{ error: 'RATE_LIMIT_EXCEEDED', message: 'Too many API requests', retryAfter: 12 }],
} as const;

const INTEGER_TEXT = { type: 'string', pattern: '^[0-9]+$' };

/** The spec's "Rate-limit response headers", set by every metered or limited answer. */
export const rateLimitHeaders = {
  'X-RateLimit-Limit': { ...INTEGER_TEXT, description: 'Maximum requests allowed in the window' },
  'X-RateLimit-Remaining': { ...INTEGER_TEXT, description: 'Requests remaining in the window' },
  'X-RateLimit-Reset': { ...INTEGER_TEXT, description: 'Unix time (seconds) when the window resets' },
  'X-RateLimit-Policy': { type: 'string', description: 'Name of the window that decided' },
} as const;

export const retryAfterHeader = {
  'Retry-After': { ...INTEGER_TEXT, description: 'Seconds to wait before retrying' },
} as const;

export const wwwAuthenticateHeader = {
  'WWW-Authenticate': { type: 'string', description: 'RFC 6750 challenge naming the error' },
} as const;
