import { identityErrors } from '../domain/errors.js';
import { isUsable, parseInvitationToken, type Invitation } from '../domain/invitation.js';
import type { IdentityContext } from './context.js';

/** Where invitation links point and how they are mailed (identity's SMTP mailer). */
export interface InvitationMail {
  /** The console's page that reads `#token=` and accepts, e.g. https://app.example.com/console/accept-invitation. */
  readonly linkUrl: string;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** The one answer to a token that is unknown, malformed, expired, revoked or used. */
export const invalidOrExpired = () => identityErrors.create('INVALID_OR_EXPIRED');

/**
 * Every write to one invitation (claim, release, completion, revocation, expiry) runs under this
 * key of `ctx.locks`: FerretDB applies a conditional update as read-modify-write, so two claims
 * of one invitation could both match without it (see @tap/runtime's keyed lock).
 */
export const invitationLockKey = (id: string) => `invitation:${id}`;

/** The keyed hash an invitation's secret is stored as. */
export const invitationSecretHash = (ctx: IdentityContext, secret: string) =>
  ctx.hasher.digest('invitation', secret);

/**
 * The invitation a token names, if the token is its own and it is usable now; else
 * INVALID_OR_EXPIRED. The secret is compared as a keyed hash in constant time, under the
 * current secret and, while one is rotated out, the previous one (both always compared).
 */
export async function usableInvitation(ctx: IdentityContext, token: string): Promise<Invitation> {
  const parts = parseInvitationToken(token);
  if (!parts) throw invalidOrExpired();
  const invitation = await ctx.invitations.find(parts.id);
  if (!invitation || !matches(ctx, invitation.tokenHash, parts.secret) || !isUsable(invitation, ctx.now()))
    throw invalidOrExpired();
  return invitation;
}

/** Whether `secret` is the one stored as `storedHash`. */
export function matches(ctx: IdentityContext, storedHash: string, secret: string): boolean {
  const current = ctx.hasher.equal(storedHash, invitationSecretHash(ctx, secret));
  const previousHash = ctx.hasher.previousDigest('invitation', secret);
  const previous = previousHash !== undefined && ctx.hasher.equal(storedHash, previousHash);
  return current || previous;
}
