import { identityErrors } from './errors.js';

/**
 * Shapes of the credentials the anonymous RPCs take (Login, IssueClientToken). The gateway
 * bounds the same fields at the edge; identity checks again because it trusts no caller's
 * input (docs/security.md, "Edge input"): an out-of-shape value is `CREDENTIAL_MALFORMED`
 * (INVALID_ARGUMENT, a 400) before any lookup, hashing or password check spends work on it.
 */
export const CREDENTIAL_SHAPES = {
  /** Client ids are UUIDs; RFC 3986 unreserved characters leave room for other id schemes. */
  clientId: /^[A-Za-z0-9._~-]{1,128}$/,
  /** Client secrets are 43 base64url characters; any printable ASCII up to 256 is looked at. */
  clientSecret: /^[\x21-\x7e]{1,256}$/,
  /** RFC 6749 §3.3 scope tokens separated by spaces. */
  scope: /^[\x21\x23-\x5b\x5d-\x7e ]{0,1000}$/,
  /** RFC 5321's longest address; control characters are never part of one. */
  // eslint-disable-next-line no-control-regex
  email: /^[^\x00-\x1f\x7f]{1,320}$/,
  /** Far above any password we accept (12 to 128); bounds the password hash's input. */
  password: /^[\s\S]{1,1024}$/,
} as const;

export type CredentialField = keyof typeof CREDENTIAL_SHAPES;

/** Throws `CREDENTIAL_MALFORMED` naming the field when `value` is out of its shape. */
export function assertCredentialShape(field: CredentialField, value: string): void {
  if (!CREDENTIAL_SHAPES[field].test(value))
    throw identityErrors.create('CREDENTIAL_MALFORMED', { details: { field } });
}
