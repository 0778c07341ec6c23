import type { AdoptionServiceHandlers, CompleteMilestoneRequest__Output } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { adoptionErrors, completeMilestone, type ManualCompletion } from '../domain/index.js';
import { recomputeOnWrite } from '../recompute-on-write.js';
import { callerTier, readTenant, recomputeForRead, type Caller } from '../tenant-state.js';
import { callerOf, MAX_RPC_WRITE_ATTEMPTS, type AdoptionHandlerDeps } from './handler-deps.js';
import { stateToWire } from './wire/state-to-wire.js';
import { requireJourneyWriter } from './write-access.js';

/** A manual completion: checked against a fresh read, written with a compare-and-set on the version. */
async function complete(
  deps: AdoptionHandlerDeps,
  caller: Caller,
  request: CompleteMilestoneRequest__Output,
) {
  requireJourneyWriter(caller);
  const tenantId = caller.claims.tenantId;
  const expectedVersion = request.expectedVersion ?? undefined;
  const firstRead = deps.aggregates.load(tenantId);
  const tier = await callerTier(deps, caller, firstRead, { upgradeContexts: true });
  for (let attempt = 1; attempt <= MAX_RPC_WRITE_ATTEMPTS; attempt += 1) {
    const aggregate = await (attempt === 1 ? firstRead : deps.aggregates.load(tenantId));
    const { state } = recomputeForRead(aggregate, tier, deps.now());
    const outcome = completeMilestone(
      state,
      request.key,
      {
        ...(expectedVersion === undefined ? {} : { expectedVersion: Number(expectedVersion) }),
        ...(request.evidenceRef ? { evidenceRef: request.evidenceRef } : {}),
        actorId: caller.claims.subject,
        capabilities: tier.tier.capabilities,
      },
      deps.now(),
      deps.newId,
    );
    if (!outcome.ok) throw outcome.error;
    if (outcome.value.outcome === 'ALREADY_DONE') return stateToWire(state, aggregate.appliedEvents);
    const { completion } = outcome.value;
    if (expectedVersion === undefined) return completeUnpinned(deps, caller, tier, completion);
    const now = deps.now();
    const write = recomputeOnWrite({
      aggregate,
      facts: aggregate.facts,
      manualCompletions: [...aggregate.manualCompletions, completion],
      tier: tier.tier,
      version: aggregate.version + 1,
      now,
      rescanMs: deps.rescanMs,
      upgradeContexts: tier.upgradeContexts,
    });
    if (write.reschedule) await deps.schedule(tenantId, write.reschedule);
    await deps.outbox.expect(tenantId, completion, now);
    if (await deps.aggregates.recordCompletion(tenantId, completion, aggregate.version, write.derived, now)) {
      if (write.transitions.length > 0) deps.onTransitions(tenantId, write.transitions);
      // After the write: the aggregate is the truth and holds the event in its outbox, so a failed
      // publish is not a failure the client would retry against a done step; the relay sends it.
      await deps.outbox
        .publish(tenantId, completion)
        .catch((error: unknown) =>
          deps.logger.warn(
            { err: error, eventId: completion.id },
            'milestone.completed left in the outbox for the relay',
          ),
        );
      return stateToWire(write.result.state, aggregate.appliedEvents);
    }
    await deps.outbox
      .abandon(tenantId, completion)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'outbox reminder of a lost write kept'));
    // The caller pinned a version and the aggregate moved: that is the 409 it asked for.
    if (expectedVersion !== undefined) break;
  }
  throw adoptionErrors.create('VERSION_CONFLICT', {
    details: expectedVersion === undefined ? {} : { expectedVersion: Number(expectedVersion) },
  });
}

/**
 * A completion without `expectedVersion`: the caller asked for no concurrency check, so it is
 * written without the version guard (only "not completed yet"), and events flowing for the
 * tenant can never turn it into a 409. The answer is the state read after the write.
 */
async function completeUnpinned(
  deps: AdoptionHandlerDeps,
  caller: Caller,
  tier: Awaited<ReturnType<typeof callerTier>>,
  completion: ManualCompletion,
) {
  const tenantId = caller.claims.tenantId;
  const now = deps.now();
  await deps.outbox.expect(tenantId, completion, now);
  const recorded = await deps.aggregates.recordCompletionOnce(tenantId, completion, now);
  if (recorded === 'recorded') {
    await deps.outbox
      .publish(tenantId, completion)
      .catch((error: unknown) =>
        deps.logger.warn(
          { err: error, eventId: completion.id },
          'milestone.completed left in the outbox for the relay',
        ),
      );
  } else {
    await deps.outbox
      .abandon(tenantId, completion)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'outbox reminder of a lost write kept'));
  }
  const aggregate = await deps.aggregates.load(tenantId);
  return stateToWire(recomputeForRead(aggregate, tier, deps.now()).state, aggregate.appliedEvents);
}

/** GetState and CompleteMilestone. */
export function stateHandlers(
  deps: AdoptionHandlerDeps,
): Pick<AdoptionServiceHandlers, 'GetState' | 'CompleteMilestone'> {
  return {
    GetState: unaryHandler('AdoptionService/GetState', deps.logger, async (_request, ctx) => {
      const caller = await callerOf(ctx.metadata, deps.verifier);
      const { aggregate, result } = await readTenant(deps, caller, { upgradeContexts: true });
      return stateToWire(result.state, aggregate.appliedEvents);
    }),
    CompleteMilestone: unaryHandler('AdoptionService/CompleteMilestone', deps.logger, async (request, ctx) =>
      complete(deps, await callerOf(ctx.metadata, deps.verifier), request),
    ),
  };
}
