import { defineErrors } from '@tap/errors';

/** Identity's error catalogue: every expected failure, with its kind and default message. */
export const identityErrors = defineErrors({
  TENANT_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such tenant' },
  TENANT_NAME_INVALID: { kind: 'INVALID_ARGUMENT', message: 'A tenant name is 1 to 120 characters' },
  TENANT_SLUG_INVALID: {
    kind: 'INVALID_ARGUMENT',
    message: 'A slug is 3 to 63 lowercase letters, digits and hyphens',
  },
  TENANT_SLUG_TAKEN: { kind: 'ALREADY_EXISTS', message: 'That slug is taken' },
  TENANT_ID_REQUIRED: { kind: 'INVALID_ARGUMENT', message: 'An operator call names the tenant' },
  ROLE_INVALID: { kind: 'INVALID_ARGUMENT', message: 'Role must be OWNER, ADMIN or MEMBER' },
  SCOPE_INVALID: { kind: 'INVALID_ARGUMENT', message: 'Unknown scope' },
  SIGNING_KEY_UNAVAILABLE: { kind: 'UNAVAILABLE', message: 'No signing key is loaded yet' },
  // A configuration error: neither key-encryption secret opens a stored key (see keys/sealed-keys.ts).
  SIGNING_KEY_SEALED_UNDER_UNKNOWN_SECRET: {
    kind: 'UNAVAILABLE',
    message: 'A signing key opens with none of the configured key-encryption secrets',
  },
  SIGNING_KEY_ROTATION_CONFLICT: {
    kind: 'CONFLICT',
    message: 'Another signing-key rotation happened at the same time; try again',
  },

  EMAIL_INVALID: { kind: 'INVALID_ARGUMENT', message: 'That is not an email address' },
  EMAIL_TAKEN: { kind: 'ALREADY_EXISTS', message: 'That email address already has an account' },
  USER_NAME_INVALID: { kind: 'INVALID_ARGUMENT', message: 'First and last names are 1 to 100 characters' },
  PASSWORD_TOO_WEAK: { kind: 'INVALID_ARGUMENT', message: 'A password is 12 to 128 characters' },
  USER_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such user' },

  // One answer for an unknown email, a wrong password and an inactive account (no enumeration).
  INVALID_CREDENTIALS: { kind: 'UNAUTHENTICATED', message: 'The email or password is incorrect' },
  // One answer for unknown, expired, rotated-out, reused and revoked refresh tokens.
  REFRESH_TOKEN_INVALID: {
    kind: 'UNAUTHENTICATED',
    message: 'The refresh token is expired, malformed or revoked',
  },
  // One answer for an unknown, expired and already used magic link (details withheld).
  INVALID_OR_EXPIRED: { kind: 'INVALID_ARGUMENT', message: 'The link is invalid or has expired' },
  SSO_CLAIMS_INVALID: { kind: 'INVALID_ARGUMENT', message: 'The single sign-on could not be completed' },
  SSO_EMAIL_UNVERIFIED: {
    kind: 'PERMISSION_DENIED',
    message: 'The identity provider has not verified that email address',
  },
  JOIN_DOMAIN_INVALID: { kind: 'INVALID_ARGUMENT', message: 'That is not an email domain' },
  JOIN_REQUEST_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such pending join request' },
  // The tier's MAX_USERS seats are all held (entitlements' seat ledger); details say how many.
  LIMIT_EXCEEDED: {
    kind: 'PERMISSION_DENIED',
    message: 'Every seat of your plan is taken: deactivate a member or upgrade',
  },
  LAST_OWNER: { kind: 'CONFLICT', message: 'A tenant keeps at least one active OWNER' },
  SESSION_CHANNEL_INVALID: { kind: 'INVALID_ARGUMENT', message: 'A session channel is bearer or cookie' },
  USER_TOKEN_REQUIRED: { kind: 'PERMISSION_DENIED', message: 'Only a signed-in user can do this' },

  // Team administration (docs/identity.md "Invitations", "Sessions").
  FORBIDDEN_ROLE: {
    kind: 'PERMISSION_DENIED',
    message: 'An ADMIN can neither change, invite nor end the sessions of an OWNER, nor make anyone OWNER',
  },
  ALREADY_MEMBER: { kind: 'ALREADY_EXISTS', message: 'That address is already a member of this company' },
  INVITATION_PENDING: {
    kind: 'ALREADY_EXISTS',
    message: 'A pending invitation for that address exists; revoke it first',
  },
  INVITATION_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such pending invitation' },
  LINK_CONFIRMATION_REQUIRED: {
    kind: 'FAILED_PRECONDITION',
    message: 'That address has an account in another company; confirm to move it here',
  },
  ACCOUNT_OWNS_TENANT: {
    kind: 'FAILED_PRECONDITION',
    message: 'The account is an OWNER of its company; hand the ownership over first',
  },
  SESSION_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such session' },
  // The invitation's mail could not be sent (or no mail is configured): nothing was created.
  MAIL_UNAVAILABLE: { kind: 'UNAVAILABLE', message: 'The invitation could not be mailed; try again' },
  MAIL_NOT_CONFIGURED: { kind: 'UNAVAILABLE', message: 'This installation sends no mail' },

  // A credential field out of its shape (length, characters); the value itself is never echoed.
  CREDENTIAL_MALFORMED: { kind: 'INVALID_ARGUMENT', message: 'A credential is malformed' },
  // One answer for an unknown client and a wrong secret.
  CLIENT_AUTH_FAILED: { kind: 'UNAUTHENTICATED', message: 'The client credentials are incorrect' },
  SCOPE_NOT_GRANTED: {
    kind: 'INVALID_ARGUMENT',
    message: 'The requested scope exceeds what the client was granted',
  },
  OAUTH_CLIENT_NAME_INVALID: { kind: 'INVALID_ARGUMENT', message: 'A client name is 1 to 100 characters' },
  OAUTH_CLIENT_SCOPES_REQUIRED: { kind: 'INVALID_ARGUMENT', message: 'A client needs at least one scope' },
  OAUTH_CLIENT_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such OAuth client' },
  OAUTH_CLIENT_ROTATION_CONFLICT: {
    kind: 'CONFLICT',
    message: 'The secret was rotated at the same time; try again',
  },
});

export type IdentityErrorCode = keyof typeof identityErrors.catalogue;
