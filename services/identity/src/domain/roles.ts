import { identityErrors } from './errors.js';

import { API_SCOPES, ROLES, type ApiScope, type Role } from '@tap/contracts';

// The lists are the public vocabulary (@tap/contracts): the OpenAPI document's enums read them too.
export { ROLES, type Role };

/** Roles that administer their tenant: OAuth clients, users, success plans. */
export const MANAGER_ROLES: readonly Role[] = ['OWNER', 'ADMIN'];

/** The OAuth scopes of the spec's table. */
export const SCOPES = API_SCOPES;
export type Scope = ApiScope;

export function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw identityErrors.create('ROLE_INVALID');
  return value as Role;
}

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function parseScopes(values: readonly string[]): Scope[] {
  for (const value of values) {
    if (!isScope(value)) throw identityErrors.create('SCOPE_INVALID', { details: { scope: value } });
  }
  return [...new Set(values)] as Scope[];
}

/**
 * The scopes a signed-in user's access tokens carry. Every role works with the tenant's data,
 * so every role gets every scope; roles, not scopes, gate administration (clients, plans).
 */
export function scopesForRole(_role: Role): readonly Scope[] {
  return SCOPES;
}
