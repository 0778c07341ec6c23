import type { Invitation } from '../../domain/invitation.js';

/** Invitations, one document each; at most one pending invitation per tenant and address. */
export interface InvitationsRepository {
  ensureIndexes(): Promise<void>;
  /** Throws INVITATION_PENDING when the tenant has a pending invitation for the address. */
  insert(invitation: Invitation): Promise<void>;
  /** Any invitation of the tenant by id (another tenant's is undefined). */
  findInTenant(tenantId: string, id: string): Promise<Invitation | undefined>;
  /** By id alone, for a token (which names the id): the caller compares the token's hash. */
  find(id: string): Promise<Invitation | undefined>;
  /** The tenant's invitation that holds the pending slot for `email`, expired or not. */
  findPendingFor(tenantId: string, email: string): Promise<Invitation | undefined>;
  /** The tenant's pending, unexpired invitations, newest first (bounded). */
  listPending(tenantId: string, now: Date): Promise<Invitation[]>;
  /** Frees the pending slot of an invitation that expired (it stays listed nowhere). */
  expire(tenantId: string, id: string, now: Date): Promise<void>;
  /** PENDING → REVOKED; the revoked invitation, or undefined when it was not pending. */
  revoke(tenantId: string, id: string, now: Date): Promise<Invitation | undefined>;
  /**
   * The one winner of concurrent acceptances: PENDING (or an abandoned ACCEPTING claim older
   * than `staleBefore`) and unexpired → ACCEPTING; the invitation, or undefined for a loser.
   */
  claim(id: string, now: Date, staleBefore: Date): Promise<Invitation | undefined>;
  /** ACCEPTING → PENDING: the acceptance failed (a seat refused), the link stays usable. */
  release(id: string, claimedAt: Date): Promise<void>;
  /** ACCEPTING → ACCEPTED, and the pending slot freed. */
  complete(id: string, claimedAt: Date, now: Date): Promise<void>;
  /** Deletes invitations that expired before `before`, whatever their status; how many. */
  deleteExpired(before: Date): Promise<number>;
}
