import type { SessionClient } from '../domain/session.js';
import type { IdentityContext } from './context.js';
import { hashOf, invalidOrExpired, TOKEN_PREFIX, type RedeemOutcome } from './magic-link.js';
import { openSession } from './open-session.js';
import { signUp } from './sign-up.js';
import { recordSignIn } from './audit-actor.js';

/** Redeems a link once: sign-in, sign-up (new tenant and owner), or a join request to approve. */
export async function redeemMagicLink(
  ctx: IdentityContext,
  token: string,
  client?: Partial<SessionClient>,
): Promise<RedeemOutcome> {
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
    const session = await openSession(ctx, user, 'cookie', client);
    await recordSignIn(ctx, user, 'session.magic_link_signed_in', client);
    return { outcome: 'SIGNED_IN', session };
  }
  return signUp(ctx, intent, undefined, client);
}
