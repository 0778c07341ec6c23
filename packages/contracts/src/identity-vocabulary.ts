/*
 * The words of identity's public answers: one list each, read by identity's domain and by the
 * gateway's schemas (the OpenAPI document's enums), so the contract cannot drift from the rules.
 */

/** A member's role in a tenant, most powerful first. */
export const ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type Role = (typeof ROLES)[number];

/** The OAuth scopes of the spec's table. */
export const API_SCOPES = [
  'products:read',
  'products:write',
  'connections:read',
  'connections:write',
  'imports:write',
  'traceability:read',
  'dpp:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** A member of the tenant: counted against the seats while ACTIVE. */
export const MEMBER_STATUSES = ['ACTIVE', 'DEACTIVATED'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

/** An invitation as answers show it (EXPIRED is computed from its expiry when read). */
export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** A request to join an existing tenant. */
export const JOIN_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type JoinRequestStatus = (typeof JOIN_REQUEST_STATUSES)[number];
