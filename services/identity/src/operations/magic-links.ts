import { randomBytes } from 'node:crypto';
import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import { newTenant, slugify, type Tenant } from '../domain/tenant.js';
import { newUser, normaliseEmail, type User } from '../domain/user.js';
import type { MagicLinkIntent } from './ports/magic-links-repository.js';
import type { IdentityContext } from './context.js';
import { openSession, type IssuedSession } from './sessions.js';

/** A magic link works for 15 minutes, once (docs/browser-sessions.md). */
export const MAGIC_LINK_TTL_MS = 15 * 60_000;
const TOKEN_PREFIX = 'ml_';

/** Where links point and how they are mailed; without it no link is sent (a service without mail). */
export interface MagicLinkMail {
  /** The web app's page that reads `#token=` and redeems it, e.g. https://app.example.com/auth/magic-link. */
  readonly linkUrl: string;
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

export type RedeemOutcome =
  | { readonly outcome: 'SIGNED_IN'; readonly session: IssuedSession }
  | { readonly outcome: 'PENDING_APPROVAL' }
  | { readonly outcome: 'LINK_CONFIRMATION' };

const invalidOrExpired = () => identityErrors.create('INVALID_OR_EXPIRED');
const hashOf = (ctx: IdentityContext, token: string) => ctx.hasher.digest('magic-link', token);

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

/**
 * A sign-in link for an active account; nothing at all for any other address. Run off the
 * answer's path by the caller, so the answer takes the same time either way.
 */
export async function sendSignInLink(
  ctx: IdentityContext,
  mail: MagicLinkMail,
  email: string,
): Promise<void> {
  const found = await ctx.users.findCredentials(normaliseEmail(email));
  if (!found?.user.active) return;
  const { user } = found;
  await issueLink(
    ctx,
    mail,
    user.email,
    { kind: 'sign-in', userId: user.id, tenantId: user.tenantId },
    'Your sign-in link',
    'Sign in with this link:',
  );
}

/**
 * A passwordless sign-up: the link carries the intent (company and names). For an address that
 * already has an account it sends a sign-in link instead (the mailbox owner gets in either way;
 * the caller learns nothing). Also run off the answer's path.
 */
export async function sendSignUpLink(
  ctx: IdentityContext,
  mail: MagicLinkMail,
  input: { email: string; companyName: string; firstName: string; lastName: string },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (await ctx.users.findCredentials(email)) return sendSignInLink(ctx, mail, email);
  await issueLink(
    ctx,
    mail,
    email,
    {
      kind: 'sign-up',
      email,
      companyName: input.companyName,
      firstName: input.firstName,
      lastName: input.lastName,
    },
    'Finish creating your account',
    'Confirm your email address and finish signing up with this link:',
  );
}

/** Checks a sign-up's fields before any link is made (the answer still does not depend on the address). */
export function checkSignUpInput(input: {
  email: string;
  companyName: string;
  firstName: string;
  lastName: string;
}): void {
  newTenant({ name: input.companyName, slug: '' }, 'check', new Date(0));
  newUser({ ...input, password: 'x'.repeat(16) }, { id: 'check', tenantId: 'check' }, 'OWNER', new Date(0));
}

/** Redeems a link once: sign-in, sign-up (new tenant and owner), or a join request to approve. */
export async function redeemMagicLink(ctx: IdentityContext, token: string): Promise<RedeemOutcome> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 128) throw invalidOrExpired();
  const hash = hashOf(ctx, token);
  // A link made under TOKEN_HASH_SECRET_PREVIOUS (they live 15 minutes) is stored under that
  // secret's hash: one more lookup, only when the first finds nothing and a previous secret is set.
  const previousHash = ctx.hasher.previousDigest('magic-link', token);
  const intent = await ctx.locks.run(`magic-link:${hash}`, async () => {
    const now = ctx.now();
    const found = await ctx.magicLinks.consume(hash, now);
    return (
      found ?? (previousHash === undefined ? undefined : await ctx.magicLinks.consume(previousHash, now))
    );
  });
  if (!intent) throw invalidOrExpired();
  if (intent.kind === 'sign-in' || intent.kind === 'link') {
    const user = await ctx.users.findInTenant(intent.tenantId, intent.userId);
    if (!user?.active) throw invalidOrExpired();
    if (intent.kind === 'link')
      await ctx.externalIdentities.link(
        intent.provider,
        intent.subject,
        { tenantId: user.tenantId, userId: user.id },
        ctx.now(),
      );
    return { outcome: 'SIGNED_IN', session: await openSession(ctx, user, 'cookie') };
  }
  return signUp(ctx, intent);
}

/**
 * A verified new address: a join request where its domain is gated, else a new tenant and its
 * owner. `onCreated` runs with the new user before any session is opened (SSO links its subject).
 */
export async function signUp(
  ctx: IdentityContext,
  intent: Extract<MagicLinkIntent, { kind: 'sign-up' }>,
  onCreated: (user: User) => Promise<void> = async () => undefined,
): Promise<RedeemOutcome> {
  const now = ctx.now();
  // Never typed by anyone: a passwordless account cannot sign in with a password until one is set.
  const unusablePassword = randomSecret();
  const passwordHash = await ctx.passwords.hash(unusablePassword);
  const input = {
    email: intent.email,
    firstName: intent.firstName,
    lastName: intent.lastName,
    password: unusablePassword,
  };
  const domain = intent.email.slice(intent.email.lastIndexOf('@') + 1);
  const gatedTenant = await ctx.joins.tenantForDomain(domain);
  try {
    if (gatedTenant) {
      const user: User = {
        ...newUser(input, { id: ctx.newId(), tenantId: gatedTenant }, 'MEMBER', now),
        active: false,
      };
      await ctx.users.insert(user, passwordHash);
      await onCreated(user);
      await ctx.joins.insertRequest({
        id: ctx.newId(),
        tenantId: gatedTenant,
        userId: user.id,
        email: user.email,
        firstName: user.firstName,
        lastName: user.lastName,
        status: 'PENDING',
        createdAt: now,
      });
      return { outcome: 'PENDING_APPROVAL' };
    }
    const tenant = await insertTenantNamed(ctx, intent.companyName, now);
    const owner = newUser(input, { id: ctx.newId(), tenantId: tenant.id }, 'OWNER', now);
    try {
      await ctx.users.insert(owner, passwordHash);
    } catch (error) {
      await ctx.tenants.remove(tenant.id);
      throw error;
    }
    await onCreated(owner);
    return { outcome: 'SIGNED_IN', session: await openSession(ctx, owner, 'cookie') };
  } catch (error) {
    // The address got an account in the meantime, or the company's slug is taken: the link is spent.
    if (identityErrors.is(error, 'EMAIL_TAKEN') || identityErrors.is(error, 'TENANT_SLUG_TAKEN'))
      throw invalidOrExpired();
    throw error;
  }
}

/** A new tenant with the slug from its name, or that slug and a random suffix when it is taken. */
async function insertTenantNamed(ctx: IdentityContext, name: string, now: Date): Promise<Tenant> {
  const first = newTenant({ name, slug: '' }, ctx.newId(), now);
  try {
    await ctx.tenants.insert(first);
    return first;
  } catch (error) {
    if (!identityErrors.is(error, 'TENANT_SLUG_TAKEN')) throw error;
  }
  const base = slugify(name).slice(0, 50).replace(/-+$/, '') || 'company';
  const second = newTenant({ name, slug: `${base}-${randomBytes(4).toString('hex')}` }, ctx.newId(), now);
  await ctx.tenants.insert(second);
  return second;
}
