import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import type { IdentityContext } from './context.js';
import type { IssuedSession } from './open-session.js';
import type { MagicLinkIntent } from './ports/magic-links-repository.js';

/** A magic link works for 15 minutes, once (docs/browser-sessions.md). */
export const MAGIC_LINK_TTL_MS = 15 * 60_000;
/** Every magic-link token starts with it: anything else is refused before a lookup. */
export const TOKEN_PREFIX = 'ml_';

/** Where links point and how they are mailed; without it no link is sent (a service without mail). */
export interface MagicLinkMail {
  /** The web app's page that reads `#token=` and redeems it, e.g. https://app.example.com/auth/magic-link. */
  readonly linkUrl: string;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

export type RedeemOutcome =
  | {
      readonly outcome: 'SIGNED_IN';
      readonly session: IssuedSession;
      /** The link was a sign-up that created the tenant and this user as its OWNER. */
      readonly tenantProvisioned?: boolean;
    }
  | { readonly outcome: 'PENDING_APPROVAL' }
  | { readonly outcome: 'LINK_CONFIRMATION' };

/** The one answer to a link that is unknown, used, expired or no longer usable. */
export const invalidOrExpired = () => identityErrors.create('INVALID_OR_EXPIRED');

/** A link token's keyed hash under the current TOKEN_HASH_SECRET: the form it is stored in. */
export const hashOf = (ctx: IdentityContext, token: string) => ctx.hasher.digest('magic-link', token);

/** Makes a single-use link for `intent`, stores its hash, and mails it to `to`. */
export async function issueLink(
  ctx: IdentityContext,
  mail: MagicLinkMail,
  to: string,
  intent: MagicLinkIntent,
  subject: string,
  lead: string,
) {
  const token = `${TOKEN_PREFIX}${randomSecret()}`;
  const now = ctx.now();
  await ctx.magicLinks.insert(hashOf(ctx, token), intent, now, new Date(now.getTime() + MAGIC_LINK_TTL_MS));
  // The token only in the fragment: browsers never send it, so a scanner's GET cannot use it.
  const link = `${mail.linkUrl}#token=${token}`;
  await mail.send({
    to,
    subject,
    text: `${lead}\n\n${link}\n\nThe link works once, for 15 minutes. If you did not ask for it, ignore this email.\n`,
  });
}
