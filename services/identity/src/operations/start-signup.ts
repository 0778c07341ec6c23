import { newTenant } from '../domain/tenant.js';
import { newUser, normaliseEmail } from '../domain/user.js';
import type { IdentityContext } from './context.js';
import { issueLink, type MagicLinkMail } from './magic-link.js';
import { requestMagicLink } from './request-magic-link.js';

/**
 * A passwordless sign-up: the link carries the intent (company and names). For an address that
 * already has an account it sends a sign-in link instead (the mailbox owner gets in either way;
 * the caller learns nothing). Also run off the answer's path.
 */
export async function startSignup(
  ctx: IdentityContext,
  mail: MagicLinkMail,
  input: { email: string; companyName: string; firstName: string; lastName: string },
): Promise<void> {
  const email = normaliseEmail(input.email);
  if (await ctx.users.findCredentials(email)) return requestMagicLink(ctx, mail, email);
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
