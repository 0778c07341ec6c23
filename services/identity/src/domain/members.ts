import type { MemberStatus as PublicMemberStatus } from '@tap/contracts';
import { identityErrors } from './errors.js';
import type { Role } from './roles.js';
import type { User } from './user.js';

export type MemberStatus = PublicMemberStatus;

/** Who asks: the signed-in manager's role and id (from the token). */
export interface MemberActor {
  readonly userId: string;
  readonly role: Role;
}

export function memberStatus(user: User): MemberStatus {
  return user.active ? 'ACTIVE' : 'DEACTIVATED';
}

/** Whether the user is a member (active, or deactivated by a manager), not a join awaiting approval. */
export function isMember(user: User): boolean {
  return user.active || (user.deactivatedAt ?? null) !== null;
}

/**
 * An ADMIN may manage ADMINs and MEMBERs only: it can neither change an OWNER (role, deactivation,
 * reactivation) nor make anyone OWNER. An OWNER may do everything (FORBIDDEN_ROLE otherwise).
 */
export function assertMayManage(actor: MemberActor, target: User, newRole?: Role): void {
  if (actor.role === 'OWNER') return;
  if (target.role === 'OWNER' || newRole === 'OWNER') throw identityErrors.create('FORBIDDEN_ROLE');
}

/**
 * A tenant keeps at least one active OWNER: demoting or deactivating the last one is LAST_OWNER.
 * `activeOwners` counts the tenant's active OWNERs before the change.
 */
export function assertKeepsAnOwner(
  target: User,
  activeOwners: number,
  change: { role?: Role; active?: boolean },
): void {
  const removesAnOwner =
    target.role === 'OWNER' &&
    target.active &&
    ((change.role !== undefined && change.role !== 'OWNER') || change.active === false);
  if (removesAnOwner && activeOwners <= 1) throw identityErrors.create('LAST_OWNER');
}
