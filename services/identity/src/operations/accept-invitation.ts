import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import { INVITATION_CLAIM_TIMEOUT_MS, type Invitation } from '../domain/invitation.js';
import type { SessionClient } from '../domain/session.js';
import { newUser, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { invalidOrExpired, invitationLockKey, usableInvitation } from './invitation-token.js';
import { openSession, type IssuedSession } from './open-session.js';
import type { UserPlacement } from './ports/users-repository.js';
import { revokeSessions } from './revoke-sessions.js';
import { activateWithSeat, freeSeatOf } from './seats.js';

export interface AcceptInvitationInput {
  readonly token: string;
  /** For a new account; ignored when the address already has one. */
  readonly firstName: string;
  readonly lastName: string;
  /** Optional for a new account: without it the account signs in by magic link or SSO. */
  readonly password: string;
  /** The address has an account in another tenant: it moves here only with this set. */
  readonly confirmLink: boolean;
  readonly client?: Partial<SessionClient> | undefined;
}

/** The seat step, replaceable only so a test can stand in for entitlements refusing a seat. */
export type ActivateWithSeat = typeof activateWithSeat;

/**
 * Accepts an invitation once: creates the account (or links the existing one), takes a seat and
 * signs the user in. The invitation is claimed first (one winner under concurrency); any failure
 * after the claim, a refused seat included, undoes what was made and hands the claim back, so
 * the link stays usable. "Linking" an account of another tenant moves it here (an e-mail address
 * is one account on the platform): its sessions there end and its seat there is freed.
 */
export async function acceptInvitation(
  ctx: IdentityContext,
  input: AcceptInvitationInput,
  activate: ActivateWithSeat = activateWithSeat,
): Promise<IssuedSession> {
  const invitation = await usableInvitation(ctx, input.token);
  const existing = (await ctx.users.findCredentials(invitation.email))?.user;
  if (existing?.tenantId === invitation.tenantId && existing.active)
    throw identityErrors.create('ALREADY_MEMBER');
  if (existing && existing.tenantId !== invitation.tenantId) {
    if (!input.confirmLink) throw identityErrors.create('LINK_CONFIRMATION_REQUIRED');
    // An owner leaving would orphan its company: ownership is handed over first.
    if (existing.role === 'OWNER') throw identityErrors.create('ACCOUNT_OWNS_TENANT');
  }
  // A new account's input is checked before the claim: a typo costs no claim and no rollback.
  const prepared = existing ? undefined : await prepareNewUser(ctx, invitation, input);
  const now = ctx.now();
  const claimed = await ctx.locks.run(invitationLockKey(invitation.id), () =>
    ctx.invitations.claim(invitation.id, now, new Date(now.getTime() - INVITATION_CLAIM_TIMEOUT_MS)),
  );
  if (!claimed?.claimedAt) throw invalidOrExpired();
  const claimedAt = claimed.claimedAt;
  let placed: { user: User; undo: () => Promise<void> } | undefined;
  let activated = false;
  let user: User | undefined;
  try {
    placed = existing ? await placeExisting(ctx, invitation, existing) : await insertNew(ctx, prepared!);
    await activate(ctx, invitation.tenantId, placed.user.id);
    activated = true;
    user = await ctx.users.findInTenant(invitation.tenantId, placed.user.id);
    if (!user?.active) throw invalidOrExpired();
    await ctx.locks.run(invitationLockKey(invitation.id), () =>
      ctx.invitations.complete(invitation.id, claimedAt, ctx.now()),
    );
  } catch (error) {
    await undoAcceptance(ctx, invitation, claimedAt, activated ? placed : undefined, placed);
    throw error;
  }
  // Accepted: from here on nothing is undone (the account is in place; it can sign in by link).
  if (existing && existing.tenantId !== invitation.tenantId) await leaveTenant(ctx, existing);
  return openSession(ctx, user, 'cookie', input.client);
}

/**
 * The reverse order of the steps: the seat (if taken), the account, the claim (so the link stays
 * usable). Each step is tried even when an earlier one fails; a step that cannot be undone now is
 * left to the claim timeout and the seat reconciliation.
 */
async function undoAcceptance(
  ctx: IdentityContext,
  invitation: Invitation,
  claimedAt: Date,
  seated: { user: User } | undefined,
  placed: { undo: () => Promise<void> } | undefined,
): Promise<void> {
  const steps = [
    seated ? () => freeSeatOf(ctx, invitation.tenantId, seated.user.id) : undefined,
    placed ? () => placed.undo() : undefined,
    () =>
      ctx.locks.run(invitationLockKey(invitation.id), () =>
        ctx.invitations.release(invitation.id, claimedAt),
      ),
  ];
  for (const step of steps) await step?.().catch(() => undefined);
}

async function prepareNewUser(ctx: IdentityContext, invitation: Invitation, input: AcceptInvitationInput) {
  // Never typed by anyone when no password is given: the account signs in by link until one is set.
  const password = input.password === '' ? randomSecret() : input.password;
  const user: User = {
    ...newUser(
      { email: invitation.email, firstName: input.firstName, lastName: input.lastName, password },
      { id: ctx.newId(), tenantId: invitation.tenantId },
      invitation.role,
      ctx.now(),
    ),
    active: false,
  };
  return { user, passwordHash: await ctx.passwords.hash(password) };
}

async function insertNew(ctx: IdentityContext, prepared: { user: User; passwordHash: string }) {
  await ctx.users.insert(prepared.user, prepared.passwordHash);
  const { user } = prepared;
  return { user, undo: () => ctx.users.remove(user.tenantId, user.id) };
}

/** The existing account, inactive, in the inviting tenant with the invited role; undo puts it back. */
async function placeExisting(ctx: IdentityContext, invitation: Invitation, existing: User) {
  const from: UserPlacement = { tenantId: existing.tenantId, role: existing.role, active: existing.active };
  const to: UserPlacement = { tenantId: invitation.tenantId, role: invitation.role, active: false };
  const user = await ctx.users.place(existing.id, from, to);
  // The account changed between our read and this write: the acceptance is retried by the person.
  if (!user) throw identityErrors.create('EMAIL_TAKEN');
  return {
    user,
    // Activated meanwhile (a seat taken, then a later step failed): put back from either state.
    undo: async () => {
      const back = await ctx.users.place(existing.id, to, from);
      if (!back) await ctx.users.place(existing.id, { ...to, active: true }, from);
    },
  };
}

/** The moved account's sessions in its former tenant end, and its seat there is freed. */
async function leaveTenant(ctx: IdentityContext, former: User): Promise<void> {
  const ids = await ctx.sessions.revokeAllOfUser(former.tenantId, former.id, 'moved-tenant', ctx.now());
  await revokeSessions(ctx, ids, 'moved-tenant');
  // The account is no longer in the former tenant, so there is nobody to deactivate there
  // (freeSeatOf would refuse with USER_NOT_FOUND): only its seat is given back.
  if (former.active) await ctx.seatLedger.release(former.tenantId, former.id);
}
