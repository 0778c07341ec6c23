import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import { managers } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import {
  adoptionStateJson,
  healthExplanationJson,
  nextBestActionJson,
  riskSignalJson,
} from './adoption-json.js';
import { ADOPTION_PLAN_ROUTES } from './adoption-plans.js';
import { ADOPTION_READ, tenantRead, type AdoptionDeps } from './adoption-read.js';
import { CompleteBody, MilestoneKeyParams, RiskSignalsQuery } from './adoption-request-schemas.js';
import {
  coverageResponse,
  healthExplanationResponse,
  nextBestActionResponse,
  riskSignalsResponse,
  stateResponse,
} from './adoption-response-schemas.js';
import { operation, registerRoutes, routesOf } from './define-route.js';

const route = routesOf<AdoptionDeps>();

/**
 * Tenant-scoped adoption endpoints (spec: "Adoption endpoints", plus our health explanation);
 * the tenant always comes from the verified token. Risk-signal `limit`: 50 when absent, 1 to
 * 200 accepted, anything else 400 (docs/adoption-model.md). Reads: any token of the tenant;
 * writes: an OWNER or ADMIN. A read's serialised answer is kept per tenant (`answers`,
 * http/answer-cache.ts) while fresh; every write relayed here tells it the tenant changed.
 */
export const ADOPTION_ROUTES = [
  route('GET /tenant/adoption/state', {
    schema: { response: stateResponse },
    access: ADOPTION_READ,
    operation: operation('adoption', 'getAdoptionState', 'The adoption state'),
    handler: (deps) =>
      tenantRead(
        deps,
        () => 'state',
        (adoption, authorization) => unaryCall(adoption, 'GetState', {}, { authorization }),
        adoptionStateJson,
      ),
  }),
  route('POST /tenant/adoption/milestones/:key/complete', {
    schema: { params: MilestoneKeyParams, body: CompleteBody, response: stateResponse },
    access: managers('moves the rung, health and plans of the whole tenant: a managerial act'),
    // 403: unmet dependencies, not applicable, not manual, a capability the tier lacks;
    // 404 MILESTONE_NOT_FOUND; 409 VERSION_CONFLICT with expectedVersion.
    operation: operation(
      'adoption',
      'completeMilestone',
      'Complete a manual milestone; the recomputed state',
      [403, 404, 409],
    ),
    handler:
      ({ clients, answers }) =>
      async (request) => {
        const body = request.body ?? {};
        const { claims, authorization } = callerOf(request);
        const state = await unaryCall(
          clients.adoption,
          'CompleteMilestone',
          {
            key: request.params.key,
            evidenceRef: body.evidenceRef ?? '',
            ...(body.expectedVersion === undefined ? {} : { expectedVersion: body.expectedVersion }),
          },
          { authorization },
        ).finally(() => answers.changed(claims.tenantId));
        return ok(adoptionStateJson(state));
      },
  }),
  route('GET /tenant/adoption/next-best-action', {
    schema: { response: nextBestActionResponse },
    access: ADOPTION_READ,
    operation: operation(
      'adoption',
      'getNextBestAction',
      'The ranked next milestone, available and locked ones',
    ),
    handler: (deps) =>
      tenantRead(
        deps,
        () => 'next-best-action',
        (adoption, authorization) => unaryCall(adoption, 'GetNextBestAction', {}, { authorization }),
        nextBestActionJson,
      ),
  }),
  route('GET /tenant/adoption/coverage', {
    schema: { response: coverageResponse },
    access: ADOPTION_READ,
    operation: operation('adoption', 'getCoverage', 'Coverage cells'),
    handler: (deps) =>
      tenantRead(
        deps,
        () => 'coverage',
        (adoption, authorization) => unaryCall(adoption, 'GetCoverage', {}, { authorization }),
        (c) => ({ cells: c.cells }),
      ),
  }),
  route('GET /tenant/adoption/risk-signals', {
    schema: { querystring: RiskSignalsQuery, response: riskSignalsResponse },
    access: ADOPTION_READ,
    operation: operation('adoption', 'listRiskSignals', 'Active risk signals, newest first'),
    handler: (deps) => {
      const limitOf = (query: { limit?: string | undefined }) =>
        query.limit === undefined ? undefined : Number(query.limit);
      return tenantRead(
        deps,
        // Keyed by the number, so `limit=5` and `limit=05` share an answer and nothing else does.
        (request) => `risk-signals:${limitOf(request.query) ?? ''}`,
        (adoption, authorization, request) => {
          const limit = limitOf(request.query);
          return unaryCall(adoption, 'ListRiskSignals', limit === undefined ? {} : { limit }, {
            authorization,
          });
        },
        (l) => ({ signals: l.signals.map(riskSignalJson) }),
      );
    },
  }),
  route('GET /tenant/adoption/health-explanation', {
    schema: { response: healthExplanationResponse },
    access: ADOPTION_READ,
    operation: operation(
      'adoption',
      'getHealthExplanation',
      'How the health score and maturity rung were reached',
    ),
    handler: (deps) =>
      tenantRead(
        deps,
        () => 'health-explanation',
        (adoption, authorization) => unaryCall(adoption, 'GetHealthExplanation', {}, { authorization }),
        healthExplanationJson,
      ),
  }),
  ...ADOPTION_PLAN_ROUTES,
] as const;

/** Registers the adoption routes (ADOPTION_ROUTES) in the API scope. */
export async function adoptionRoutes(app: FastifyInstance, deps: AdoptionDeps): Promise<void> {
  registerRoutes(app, ADOPTION_ROUTES, deps);
}
