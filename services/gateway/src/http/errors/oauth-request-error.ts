/**
 * A refusal the gateway itself decides on the public token endpoints (a malformed request, an
 * unsupported grant type, a rate limit), answered with the spec's OAuth-style body.
 */
export class OAuthRequestError extends Error {
  override readonly name = 'OAuthRequestError';
  constructor(
    readonly status: number,
    readonly error: string,
    description: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
  }
}
