/** Who a token speaks for. */
export type PrincipalKind = 'user' | 'client' | 'operator' | 'service';

/** The verified content of an access token, in our own names. */
export interface AccessClaims {
  /** User id, OAuth client id, or service name. */
  readonly subject: string;
  readonly kind: PrincipalKind;
  readonly tenantId: string;
  /** OWNER, ADMIN or MEMBER for users; empty for clients and services. */
  readonly role: string;
  readonly scopes: readonly string[];
  /** Session (users) or credential generation (clients); revocation is keyed on it. */
  readonly sessionId: string;
  readonly tokenId: string;
  readonly expiresAt: number;
}

/** What a signer needs to mint a token. */
export interface AccessTokenInput {
  readonly subject: string;
  readonly kind: PrincipalKind;
  readonly tenantId: string;
  readonly role: string;
  readonly scopes: readonly string[];
  readonly sessionId: string;
}

export const ACCESS_TOKEN_TTL_SECONDS = 900;
export const SIGNING_ALGORITHM = 'ES256';
/** RFC 9068 media type of JWT access tokens: an ID token or other JWT is never accepted as one. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
