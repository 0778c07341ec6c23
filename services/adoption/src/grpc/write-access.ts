import { unaryHandler } from '@tap/grpc-kit';
import { requireUser } from '@tap/service-auth';
import { PLAN_MANAGER_ROLES } from '../domain/index.js';
import type { Caller } from '../operations/caller.js';
import { callerOf, type AdoptionHandlerDeps } from './handler-deps.js';

/**
 * Who may write to a tenant's journey (milestone completions, success plans): a signed-in OWNER
 * or ADMIN, never an OAuth client's token. The gateway's route table says the same
 * (docs/security.md, endpoint table); the service checks again because it trusts no caller.
 * Reads stay open to any token of the tenant.
 */
function requireJourneyWriter(caller: Caller): void {
  requireUser(caller.claims, PLAN_MANAGER_ROLES);
}

/** A handler of a journey write: `handle` runs only for a verified caller who may write (requireJourneyWriter). */
export function journeyWriteHandler<Req, Res>(
  method: string,
  deps: AdoptionHandlerDeps,
  handle: (request: Req, caller: Caller) => Promise<Res>,
): ReturnType<typeof unaryHandler<Req, Res>> {
  return unaryHandler<Req, Res>(method, deps.logger, async (request, ctx) => {
    const caller = await callerOf(ctx.metadata, deps.verifier);
    requireJourneyWriter(caller);
    return handle(request, caller);
  });
}
