import { oauthError } from './catalogue.js';

/**
 * An error as the gateway answers it. Two body shapes exist in the spec: the OAuth-style one
 * for authentication (`{ error, error_description }`) and the general one
 * (`{ success: false, error: { code, message, details? } }`); rate limits have a third. Every
 * one is built by the catalogue (catalogue.ts) and sent by `sendHttpError`.
 */
export type HttpErrorBody =
  | { readonly error: string; readonly error_description: string }
  | {
      readonly success: false;
      readonly error: { readonly code: string; readonly message: string; readonly details?: unknown };
    }
  | { readonly error: 'RATE_LIMIT_EXCEEDED'; readonly message: string; readonly retryAfter: number };

export interface HttpError {
  readonly status: number;
  readonly body: HttpErrorBody;
  readonly headers?: Readonly<Record<string, string>>;
}

/** RFC 6750: a 401 from a bearer-protected resource names the scheme and the error. */
export function invalidToken(description: string): HttpError {
  return oauthError('invalid_token', description, {
    headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${description}"` },
  });
}

/** RFC 6750 §3.1: the token is valid but does not grant enough (a scope, or a user's token). */
export function insufficientScope(
  scope: string,
  description = `This request needs the scope ${scope}`,
): HttpError {
  const challenge = scope
    ? `Bearer error="insufficient_scope", scope="${scope}"`
    : 'Bearer error="insufficient_scope"';
  return oauthError('insufficient_scope', description, { headers: { 'www-authenticate': challenge } });
}
