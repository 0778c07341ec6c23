import { normaliseEmail } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { issueLink, type MagicLinkMail } from './magic-link.js';

/**
 * A sign-in link for an active account; nothing at all for any other address. Run off the
 * answer's path by the caller, so the answer takes the same time either way.
 */
export async function requestMagicLink(
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
