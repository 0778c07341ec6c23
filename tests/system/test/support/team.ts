import { unaryCall } from '@tap/grpc-kit';
import { Browser } from './cookie-jar.js';
import type { IdentityFixtures } from './identity-fixtures.js';
import { OPERATOR_TOKEN, SYSTEM_ORIGIN, type HttpResponse, type System } from './system.js';

const V2 = '/api/v1/auth/v2';
let joiners = 0;

/** A domain that gates joins into `tenantId` (operator ClaimJoinDomain). */
export async function gatedDomain(fx: IdentityFixtures, tenantId: string): Promise<string> {
  const domain = `gated-${Date.now()}-${Math.floor(Math.random() * 1e6)}.example`;
  await unaryCall(
    fx.identity,
    'ClaimJoinDomain',
    { tenantId, domain },
    { authorization: `Operator ${OPERATOR_TOKEN}` },
  );
  return domain;
}

/**
 * Someone at `domain` signs up the way a person does (sign-up, the mailed link, redeem) and so
 * asks to join; their e-mail address. Each joiner comes from its own client address.
 */
export async function askToJoin(system: System, domain: string): Promise<string> {
  joiners += 1;
  const email = `joiner-${joiners}@${domain}`;
  const joiner = new Browser(
    system,
    undefined,
    `203.0.${Math.floor(joiners / 250) + 100}.${(joiners % 250) + 1}`,
  );
  const since = system.mail.messages.length;
  const signup = await joiner.post(`${V2}/signup`, {
    body: { email, companyName: 'Ignored', firstName: 'Jo', lastName: `Joiner ${joiners}` },
  });
  if (signup.status !== 200) throw new Error(`sign-up answered ${signup.status}`);
  const message = await system.mail.waitForMessage(email, { since, timeoutMs: 10_000 });
  const link = /https:\/\/\S+/.exec(message.text)?.[0] ?? '';
  if (!link.startsWith(`${SYSTEM_ORIGIN}/auth/magic-link#token=`)) throw new Error('no sign-up link');
  const redeemed = await joiner.post(`${V2}/magic-link/redeem`, {
    body: { token: new URL(link).hash.slice('#token='.length) },
  });
  if ((redeemed.body as { status?: string }).status !== 'pending_approval') throw new Error('not pending');
  return email;
}

/** The pending join request of `email`, as the tenant's manager lists it. */
export async function pendingRequestOf(
  system: System,
  headers: Record<string, string>,
  email: string,
): Promise<{ id: string; userId: string; status: string }> {
  const listed = await system.http('GET', '/api/v1/tenant/join-requests', { headers });
  const requests = (
    listed.body as { data: { requests: { id: string; userId: string; email: string; status: string }[] } }
  ).data.requests;
  const found = requests.find((r) => r.email === email);
  if (!found) throw new Error(`no pending request of ${email}`);
  return found;
}

/** `MAX_USERS.current` of the usage report. */
export async function usersCurrent(system: System, headers: Record<string, string>): Promise<number> {
  const usage = await system.http('GET', '/api/v1/entitlements/usage', { headers });
  const limits = (usage.body as { data: { limits: Record<string, { current: number }> } }).data.limits;
  return limits['MAX_USERS']!.current;
}

export const errorCode = (response: HttpResponse): string | undefined =>
  (response.body as { error?: { code?: string } }).error?.code;
