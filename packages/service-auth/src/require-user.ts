import type { AccessClaims } from '@tap/tokens';
import { authErrors } from './errors.js';

/**
 * The service's own check of what a gateway route already demanded (zero trust: a caller that
 * reaches the service directly meets the same rule). An OAuth client's token is refused with
 * SCOPE_MISSING, which the gateway answers as `403 insufficient_scope`; a user whose role is not
 * in `roles` with ROLE_FORBIDDEN. Without `roles`, any signed-in user passes.
 */
export function requireUser(claims: AccessClaims, roles?: readonly string[]): void {
  if (claims.kind !== 'user')
    throw authErrors.create('SCOPE_MISSING', { details: { reason: 'a signed-in user is required' } });
  if (roles && !roles.includes(claims.role))
    throw authErrors.create('ROLE_FORBIDDEN', { details: { role: claims.role } });
}
