import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  AdoptionState__Output,
  Coverage__Output,
  HealthExplanation__Output,
  NextBestActionView__Output,
  RiskSignalList__Output,
} from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import {
  adoptionStateJson,
  coverageCellJson,
  healthExplanationJson,
  nextBestActionJson,
  riskSignalJson,
} from './adoption-json.js';
import { adoptionPlanRoutes } from './adoption-plans.js';
import { CompleteBody, MilestoneKeyParams, RiskSignalsQuery } from './adoption-request-schemas.js';
import {
  coverageResponse,
  healthExplanationResponse,
  nextBestActionResponse,
  riskSignalsResponse,
  stateResponse,
} from './adoption-response-schemas.js';
import { callerOf } from '../auth/caller.js';
import type { AnswerCache } from '../answer-cache.js';
import { jsonBodyMemo } from '../reply-json-memo.js';
import { sendTenantAnswer } from '../tenant-answer.js';

/**
 * Tenant-scoped adoption endpoints (spec: "Adoption endpoints", plus our health explanation);
 * the tenant always comes from the verified token. Risk-signal `limit`: 50 when absent, 1 to
 * 200 accepted, anything else 400 (docs/adoption-model.md). Who may call each: the route table
 * (http/auth/route-table.ts): reads any token of the tenant, writes an OWNER or ADMIN.
 * A read's serialised answer is kept per tenant (`answers`, http/answer-cache.ts) while fresh;
 * every write relayed here tells it the tenant changed.
 */
export async function adoptionRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients; answers: AnswerCache },
): Promise<void> {
  // Request types come from the TypeBox schemas (adoption-request-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { adoption } = options.clients;
  const { answers } = options;
  // One memo of serialised answers per read route (http/reply-json-memo.ts).
  const stateBody = jsonBodyMemo<AdoptionState__Output>();
  const nextBestActionBody = jsonBodyMemo<NextBestActionView__Output>();
  const coverageBody = jsonBodyMemo<Coverage__Output>();
  const riskSignalsBody = jsonBodyMemo<RiskSignalList__Output>();
  const explanationBody = jsonBodyMemo<HealthExplanation__Output>();

  app.get('/tenant/adoption/state', { schema: { response: stateResponse } }, async (request, reply) => {
    const { claims, authorization } = callerOf(request);
    return sendTenantAnswer(reply, answers, claims.tenantId, 'state', async () => {
      const state = await unaryCall(adoption, 'GetState', {}, { authorization });
      return stateBody(reply, state, (s) => ok(adoptionStateJson(s)));
    });
  });

  app.post(
    '/tenant/adoption/milestones/:key/complete',
    { schema: { params: MilestoneKeyParams, body: CompleteBody, response: stateResponse } },
    async (request) => {
      const body = request.body ?? {};
      const { claims, authorization } = callerOf(request);
      const state = await unaryCall(
        adoption,
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
  );

  app.get(
    '/tenant/adoption/next-best-action',
    { schema: { response: nextBestActionResponse } },
    async (request, reply) => {
      const { claims, authorization } = callerOf(request);
      return sendTenantAnswer(reply, answers, claims.tenantId, 'next-best-action', async () => {
        const view = await unaryCall(adoption, 'GetNextBestAction', {}, { authorization });
        return nextBestActionBody(reply, view, (v) => ok(nextBestActionJson(v)));
      });
    },
  );

  app.get('/tenant/adoption/coverage', { schema: { response: coverageResponse } }, async (request, reply) => {
    const { claims, authorization } = callerOf(request);
    return sendTenantAnswer(reply, answers, claims.tenantId, 'coverage', async () => {
      const coverage = await unaryCall(adoption, 'GetCoverage', {}, { authorization });
      return coverageBody(reply, coverage, (c) => ok({ cells: c.cells.map(coverageCellJson) }));
    });
  });

  app.get(
    '/tenant/adoption/risk-signals',
    { schema: { querystring: RiskSignalsQuery, response: riskSignalsResponse } },
    async (request, reply) => {
      const { claims, authorization } = callerOf(request);
      const limit = request.query.limit === undefined ? undefined : Number(request.query.limit);
      // Keyed by the number, so `limit=5` and `limit=05` share an answer and nothing else does.
      return sendTenantAnswer(reply, answers, claims.tenantId, `risk-signals:${limit ?? ''}`, async () => {
        const asked = limit === undefined ? {} : { limit };
        const list = await unaryCall(adoption, 'ListRiskSignals', asked, { authorization });
        return riskSignalsBody(reply, list, (l) => ok({ signals: l.signals.map(riskSignalJson) }));
      });
    },
  );

  app.get(
    '/tenant/adoption/health-explanation',
    { schema: { response: healthExplanationResponse } },
    async (request, reply) => {
      const { claims, authorization } = callerOf(request);
      return sendTenantAnswer(reply, answers, claims.tenantId, 'health-explanation', async () => {
        const explanation = await unaryCall(adoption, 'GetHealthExplanation', {}, { authorization });
        return explanationBody(reply, explanation, (e) => ok(healthExplanationJson(e)));
      });
    },
  );

  await adoptionPlanRoutes(app, options);
}
