import { defineErrors } from '@tap/errors';

/** Failures of authenticating a call between services; shared by every service's gRPC edge. */
export const authErrors = defineErrors({
  TOKEN_MISSING: { kind: 'UNAUTHENTICATED', message: 'A bearer token is required' },
  TOKEN_INVALID: { kind: 'UNAUTHENTICATED', message: 'The access token is expired, malformed or revoked' },
  OPERATOR_ONLY: { kind: 'PERMISSION_DENIED', message: 'Only an operator may do this' },
  SCOPE_MISSING: { kind: 'PERMISSION_DENIED', message: 'The token lacks the required scope' },
  ROLE_FORBIDDEN: { kind: 'PERMISSION_DENIED', message: 'Your role may not do this' },
});
