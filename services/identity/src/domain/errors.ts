import { defineErrors } from '@tap/errors';

/** Identity's error catalogue: every expected failure, with its kind and default message. */
export const identityErrors = defineErrors({
  TENANT_NOT_FOUND: { kind: 'NOT_FOUND', message: 'No such tenant' },
  TENANT_NAME_INVALID: { kind: 'INVALID_ARGUMENT', message: 'A tenant name is 1 to 120 characters' },
  TENANT_SLUG_INVALID: { kind: 'INVALID_ARGUMENT', message: 'A slug is 3 to 63 lowercase letters, digits and hyphens' },
  TENANT_SLUG_TAKEN: { kind: 'ALREADY_EXISTS', message: 'That slug is taken' },
  ROLE_INVALID: { kind: 'INVALID_ARGUMENT', message: 'Role must be OWNER, ADMIN or MEMBER' },
  SCOPE_INVALID: { kind: 'INVALID_ARGUMENT', message: 'Unknown scope' },
  SIGNING_KEY_UNAVAILABLE: { kind: 'UNAVAILABLE', message: 'No signing key is loaded yet' },
});
