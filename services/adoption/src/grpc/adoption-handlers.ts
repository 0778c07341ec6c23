import type { AdoptionServiceHandlers, ProductEvent } from '@tap/contracts';
import { bearerFromMetadata, unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import { adoptionErrors, completeMilestone, recompute } from '../domain/index.js';
import type { AggregatesRepository } from '../store/aggregates-repository.js';
import { loadTenantState, type TierLookup } from '../tenant-state.js';
import { stateToWire } from './state-to-wire.js';

export interface AdoptionHandlerDeps {
  readonly aggregates: AggregatesRepository;
  readonly verifier: TokenVerifier;
  readonly tierOf: TierLookup;
  readonly publish: (event: ProductEvent) => Promise<unknown>;
  readonly logger: HandlerLogger;
  readonly now: () => Date;
  readonly newId: () => string;
}

/** adoption.v1 handlers: the tenant is always the verified token's. */
export function adoptionHandlers(deps: AdoptionHandlerDeps): AdoptionServiceHandlers {
  const { logger } = deps;
  const caller = async (metadata: Parameters<typeof authenticate>[0]) => {
    const claims = await authenticate(metadata, deps.verifier);
    return { claims, authorization: `Bearer ${bearerFromMetadata(metadata) ?? ''}` };
  };

  return {
    GetState: unaryHandler('AdoptionService/GetState', logger, async (_request, ctx) => {
      const { claims, authorization } = await caller(ctx.metadata);
      const { state, facts } = await loadTenantState(deps, claims, authorization);
      return stateToWire(state, facts.facts.length);
    }),

    CompleteMilestone: unaryHandler('AdoptionService/CompleteMilestone', logger, async (request, ctx) => {
      const { claims, authorization } = await caller(ctx.metadata);
      const { state, facts, tier } = await loadTenantState(deps, claims, authorization);
      const result = completeMilestone(
        state,
        request.key,
        {
          ...(request.expectedVersion === undefined || request.expectedVersion === null ? {} : { expectedVersion: Number(request.expectedVersion) }),
          ...(request.evidenceRef ? { evidenceRef: request.evidenceRef } : {}),
          actorId: claims.subject,
          capabilities: tier.capabilities,
        },
        deps.now(),
        deps.newId,
      );
      if (!result.ok) throw result.error;
      if (result.value.outcome === 'ALREADY_DONE') return stateToWire(state, facts.facts.length);
      const { completion, event } = result.value;
      const written = await deps.aggregates.recordCompletion(claims.tenantId, completion, facts.version, deps.now());
      if (!written) throw adoptionErrors.create('VERSION_CONFLICT', { details: { expectedVersion: facts.version } });
      // Published after the write: the aggregate is the source of truth; the event tells others.
      await deps.publish(event as ProductEvent);
      const { state: after } = recompute({
        companyId: claims.tenantId,
        pathProfile: tier.pathProfile,
        facts: facts.facts,
        manualCompletions: [...facts.manualCompletions, completion],
        capabilities: tier.capabilities,
        previousBand: facts.lastBand,
        version: facts.version + 1,
        now: deps.now(),
      });
      return stateToWire(after, facts.facts.length);
    }),
  };
}
