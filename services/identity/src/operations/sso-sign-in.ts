import { identityErrors } from '../domain/errors.js';
import type { SessionClient } from '../domain/session.js';
import { normaliseEmail } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { issueLink, type MagicLinkMail, type RedeemOutcome } from './magic-link.js';
import { signUp } from './sign-up.js';
import { openSession } from './open-session.js';
import { recordSignIn } from './audit-actor.js';

/** What the gateway verified in the provider's ID token. */
export interface SsoClaims {
  readonly provider: string;
  readonly subject: string;
  readonly email: string;
  readonly emailVerified: boolean;
  readonly givenName: string;
  readonly familyName: string;
}

const nameOr = (value: string, fallback: string) => (value.trim() ? value.trim().slice(0, 100) : fallback);

/**
 * SSO sign-in (spec "Single sign-on"): a known subject signs in (or waits for its join
 * approval); an unknown subject whose email already has an account gets a magic link to confirm
 * before the two are linked; otherwise a join request (gated domain) or a new tenant and owner.
 */
export async function ssoSignIn(
  ctx: IdentityContext,
  mail: MagicLinkMail | undefined,
  claims: SsoClaims,
  client?: Partial<SessionClient>,
): Promise<RedeemOutcome> {
  if (!claims.provider || !claims.subject) throw identityErrors.create('SSO_CLAIMS_INVALID');
  const known = await ctx.externalIdentities.find(claims.provider, claims.subject);
  if (known) {
    const user = await ctx.users.findInTenant(known.tenantId, known.userId);
    if (!user) throw identityErrors.create('SSO_CLAIMS_INVALID');
    if (!user.active) return { outcome: 'PENDING_APPROVAL' };
    const session = await openSession(ctx, user, 'cookie', client);
    await recordSignIn(ctx, user, 'session.sso_signed_in', client);
    return { outcome: 'SIGNED_IN', session };
  }
  // An unverified address could be anyone's: it never links to nor creates an account.
  if (!claims.emailVerified) throw identityErrors.create('SSO_EMAIL_UNVERIFIED');
  const email = normaliseEmail(claims.email);
  const existing = await ctx.users.findCredentials(email);
  if (existing) {
    if (!mail) throw identityErrors.create('SSO_CLAIMS_INVALID');
    const { user } = existing;
    await issueLink(
      ctx,
      mail,
      user.email,
      {
        kind: 'link',
        userId: user.id,
        tenantId: user.tenantId,
        provider: claims.provider,
        subject: claims.subject,
      },
      'Confirm your single sign-on',
      `Someone signed in with ${claims.provider} as ${user.email}. If it was you, confirm with this link to connect it to your account:`,
    );
    return { outcome: 'LINK_CONFIRMATION' };
  }
  const localPart = email.slice(0, email.indexOf('@'));
  const firstName = nameOr(claims.givenName, localPart.slice(0, 100));
  const lastName = nameOr(claims.familyName, '-');
  return signUp(
    ctx,
    { kind: 'sign-up', email, companyName: `${firstName}'s company`.slice(0, 120), firstName, lastName },
    (user) =>
      ctx.externalIdentities.link(
        claims.provider,
        claims.subject,
        { tenantId: user.tenantId, userId: user.id },
        ctx.now(),
      ),
    client,
  );
}
