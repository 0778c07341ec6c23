import type { InvitationStatus as PublicInvitationStatus } from '@tap/contracts';
import { identityErrors } from './errors.js';
import type { Role } from './roles.js';

/** An invitation link works for 7 days, once (docs/identity.md "Invitations"). */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/**
 * A claimed acceptance that never finished (the process died between claim and completion) is
 * claimable again after this: long enough for any acceptance in flight, short for a person retrying.
 */
export const INVITATION_CLAIM_TIMEOUT_MS = 60_000;
/** Every invitation token starts with it: anything else is refused before a lookup. */
export const INVITATION_TOKEN_PREFIX = 'inv_';
const MAX_TOKEN_LENGTH = 256;

/** What is stored; EXPIRED is never stored, it is a PENDING invitation past its expiry. */
export type StoredInvitationStatus = 'PENDING' | 'ACCEPTING' | 'ACCEPTED' | 'REVOKED';
export type InvitationStatus = PublicInvitationStatus;

/** An invitation to join a tenant with a role, by e-mail; its token is held only as a keyed hash. */
export interface Invitation {
  readonly id: string;
  readonly tenantId: string;
  /** Normalised like a user's address. */
  readonly email: string;
  readonly role: Role;
  readonly status: StoredInvitationStatus;
  readonly invitedBy: { readonly id: string; readonly email: string };
  /** Keyed hash of the token's secret part. */
  readonly tokenHash: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** When an acceptance claimed it (status ACCEPTING), or null. */
  readonly claimedAt: Date | null;
}

/** The status a person sees: a pending invitation past its expiry is EXPIRED. */
export function invitationStatus(invitation: Invitation, now: Date): InvitationStatus {
  if (invitation.status === 'ACCEPTED' || invitation.status === 'REVOKED') return invitation.status;
  return invitation.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : 'PENDING';
}

/** Whether the token may be used now (a claim that outlived its timeout counts as pending). */
export function isUsable(invitation: Invitation, now: Date): boolean {
  if (invitation.expiresAt.getTime() <= now.getTime()) return false;
  if (invitation.status === 'PENDING') return true;
  return (
    invitation.status === 'ACCEPTING' &&
    invitation.claimedAt !== null &&
    now.getTime() - invitation.claimedAt.getTime() > INVITATION_CLAIM_TIMEOUT_MS
  );
}

/**
 * An ADMIN invites ADMINs and MEMBERs; only an OWNER invites (or otherwise acts on) an OWNER.
 * The caller's own role is a manager's: the caller checked that first.
 */
export function assertMayActOnRole(callerRole: string, targetRole: Role): void {
  if (targetRole === 'OWNER' && callerRole !== 'OWNER') throw identityErrors.create('FORBIDDEN_ROLE');
}

/** `inv_<invitation id>.<secret>`: the id finds the record, the secret is compared as a keyed hash. */
export function formatInvitationToken(parts: { id: string; secret: string }): string {
  return `${INVITATION_TOKEN_PREFIX}${parts.id}.${parts.secret}`;
}

/** The parts of a well-formed token, or undefined (answered INVALID_OR_EXPIRED by the caller). */
export function parseInvitationToken(token: string): { id: string; secret: string } | undefined {
  if (!token.startsWith(INVITATION_TOKEN_PREFIX) || token.length > MAX_TOKEN_LENGTH) return undefined;
  const rest = token.slice(INVITATION_TOKEN_PREFIX.length);
  const dot = rest.indexOf('.');
  if (dot <= 0 || dot === rest.length - 1) return undefined;
  const id = rest.slice(0, dot);
  const secret = rest.slice(dot + 1);
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id) || !/^[A-Za-z0-9_-]{16,128}$/.test(secret)) return undefined;
  return { id, secret };
}
