import { identityErrors } from './errors.js';

export const ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

/** The OAuth scopes of the spec's table. */
export const SCOPES = [
  'products:read',
  'products:write',
  'connections:read',
  'connections:write',
  'imports:write',
  'traceability:read',
  'dpp:read',
] as const;
export type Scope = (typeof SCOPES)[number];

export function parseRole(value: string): Role {
  if (!(ROLES as readonly string[]).includes(value)) throw identityErrors.create('ROLE_INVALID');
  return value as Role;
}

export function parseScopes(values: readonly string[]): Scope[] {
  for (const value of values) {
    if (!(SCOPES as readonly string[]).includes(value)) throw identityErrors.create('SCOPE_INVALID', { details: { scope: value } });
  }
  return [...new Set(values)] as Scope[];
}
