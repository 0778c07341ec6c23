import type { IdentityContext } from './context.js';
import type { JoinRequest } from './ports/join-repository.js';

/** The tenant's join requests still waiting for an OWNER's or ADMIN's approval. */
export async function listJoinRequests(
  ctx: Pick<IdentityContext, 'joins'>,
  tenantId: string,
): Promise<JoinRequest[]> {
  return ctx.joins.listPending(tenantId);
}
