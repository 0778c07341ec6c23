import { requireUser } from '@tap/service-auth';
import { PLAN_MANAGER_ROLES } from '../domain/index.js';
import type { Caller } from '../operations/caller.js';

/**
 * Who may write to a tenant's journey (milestone completions, success plans): a signed-in OWNER
 * or ADMIN, never an OAuth client's token. The gateway's route table says the same
 * (docs/security.md, endpoint table); the service checks again because it trusts no caller.
 * Reads stay open to any token of the tenant.
 */
export function requireJourneyWriter(caller: Caller): void {
  requireUser(caller.claims, PLAN_MANAGER_ROLES);
}
