import type { AuditEntryData } from '@tap/contracts';
import type { SessionClient } from '../domain/session.js';
import type { User } from '../domain/user.js';
import type { IdentityContext } from './context.js';

export type AuditActor = AuditEntryData['actor'];

/** The operator CLI: no id (its credential is shared by the operators). */
export const OPERATOR_ACTOR: AuditActor = { type: 'operator' };

/** A signed-in user of the tenant, with the address the audit log shows (read by `_id`). */
export async function userActor(ctx: IdentityContext, tenantId: string, userId: string): Promise<AuditActor> {
  const user = await ctx.users.findInTenant(tenantId, userId);
  return user ? { type: 'user', id: userId, email: user.email } : { type: 'user', id: userId };
}

/** Records a change an actor made to a target, successfully (the failures of these RPCs are no audit entries). */
export function recordChange(
  ctx: IdentityContext,
  tenantId: string,
  actor: AuditActor,
  action: string,
  target: { type: string; id: string },
  change?: { from: string; to: string },
): Promise<void> {
  return ctx.audit.record(tenantId, {
    actor,
    action,
    target,
    outcome: 'SUCCESS',
    ...(change ? { change } : {}),
  });
}

/**
 * A sign-in (or its failure) of `user`, with the address and user agent the gateway saw. Only
 * where the tenant is known: an unknown address has no tenant whose log could show it.
 */
export function recordSignIn(
  ctx: IdentityContext,
  user: User,
  action: string,
  client: Partial<SessionClient> | undefined,
  failure?: string,
): Promise<void> {
  return ctx.audit.record(user.tenantId, {
    actor: { type: 'user', id: user.id, email: user.email },
    action,
    target: { type: 'user', id: user.id },
    outcome: failure ? 'FAILURE' : 'SUCCESS',
    ...(failure ? { reason: failure } : {}),
    ...(client?.address ? { ip: client.address } : {}),
    ...(client?.userAgent ? { userAgent: client.userAgent } : {}),
  });
}

/** Records a change the user `actorId` made to the tenant's user `userId` (themselves, it may be). */
export async function recordMemberChange(
  ctx: IdentityContext,
  tenantId: string,
  actorId: string,
  action: string,
  userId: string,
  change?: { from: string; to: string },
): Promise<void> {
  await recordChange(
    ctx,
    tenantId,
    await userActor(ctx, tenantId, actorId),
    action,
    { type: 'user', id: userId },
    change,
  );
}
