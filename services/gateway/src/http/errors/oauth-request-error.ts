import { OAUTH_ERRORS, type OAuthErrorCode } from './catalogue.js';

/**
 * A refusal the gateway itself decides on the public token endpoints (a malformed request, an
 * unsupported grant type, a rate limit), answered with the spec's OAuth-style body; its status is
 * the catalogue's.
 */
export class OAuthRequestError extends Error {
  override readonly name = 'OAuthRequestError';
  readonly status: number;
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
    this.status = OAUTH_ERRORS[error].status;
  }
}
