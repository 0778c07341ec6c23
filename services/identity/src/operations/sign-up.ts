import { randomBytes } from 'node:crypto';
import { randomSecret } from '../crypto/keyed-hash.js';
import { identityErrors } from '../domain/errors.js';
import type { SessionClient } from '../domain/session.js';
import { newTenant, slugify, type Tenant } from '../domain/tenant.js';
import { domainOfAddress } from '../domain/address.js';
import { newUser, normaliseEmail, type User } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { invalidOrExpired, type RedeemOutcome } from './magic-link.js';
import { openSession } from './open-session.js';
import type { MagicLinkIntent } from './ports/magic-links-repository.js';
import { withSeat } from './seats.js';

/**
 * A verified new address: a join request where its domain is gated, else a new tenant and its
 * owner. `onCreated` runs with the new user before any session is opened (SSO links its subject).
 */
export async function signUp(
  ctx: IdentityContext,
  intent: Extract<MagicLinkIntent, { kind: 'sign-up' }>,
  onCreated: (user: User) => Promise<void> = async () => undefined,
  client?: Partial<SessionClient>,
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
  // The intent's address was normalised when the link was asked for; normalised again here so
  // a link minted before the normalisation change still matches on the one form.
  const domain = domainOfAddress(normaliseEmail(intent.email));
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
      // The new tenant's OWNER takes its first seat before the account exists.
      await withSeat(ctx, tenant.id, owner.id, () => ctx.users.insert(owner, passwordHash));
    } catch (error) {
      await ctx.tenants.remove(tenant.id);
      throw error;
    }
    await onCreated(owner);
    return {
      outcome: 'SIGNED_IN',
      session: await openSession(ctx, owner, 'cookie', client),
      tenantProvisioned: true,
    };
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
