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
import { replyJsonMemo } from '../reply-json-memo.js';

/**
 * Tenant-scoped adoption endpoints (spec: "Adoption endpoints", plus our health explanation);
 * the tenant always comes from the verified token. Risk-signal `limit`: 50 when absent, 1 to
 * 200 accepted, anything else 400 (docs/adoption-model.md). Who may call each: the route table
 * (http/auth/route-table.ts): reads any token of the tenant, writes an OWNER or ADMIN.
 */
export async function adoptionRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  // Request types come from the TypeBox schemas (adoption-request-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { adoption } = options.clients;
  // One memo of serialised answers per read route (http/reply-json-memo.ts).
  const stateBody = replyJsonMemo<AdoptionState__Output>();
  const nextBestActionBody = replyJsonMemo<NextBestActionView__Output>();
  const coverageBody = replyJsonMemo<Coverage__Output>();
  const riskSignalsBody = replyJsonMemo<RiskSignalList__Output>();
  const explanationBody = replyJsonMemo<HealthExplanation__Output>();

  app.get('/tenant/adoption/state', { schema: { response: stateResponse } }, async (request, reply) => {
    const state = await unaryCall(
      adoption,
      'GetState',
      {},
      { authorization: callerOf(request).authorization },
    );
    return stateBody(reply, state, (s) => ok(adoptionStateJson(s)));
  });

  app.post(
    '/tenant/adoption/milestones/:key/complete',
    { schema: { params: MilestoneKeyParams, body: CompleteBody, response: stateResponse } },
    async (request) => {
      const body = request.body ?? {};
      const state = await unaryCall(
        adoption,
        'CompleteMilestone',
        {
          key: request.params.key,
          evidenceRef: body.evidenceRef ?? '',
          ...(body.expectedVersion === undefined ? {} : { expectedVersion: body.expectedVersion }),
        },
        { authorization: callerOf(request).authorization },
      );
      return ok(adoptionStateJson(state));
    },
  );

  app.get(
    '/tenant/adoption/next-best-action',
    { schema: { response: nextBestActionResponse } },
    async (request, reply) => {
      const view = await unaryCall(
        adoption,
        'GetNextBestAction',
        {},
        { authorization: callerOf(request).authorization },
      );
      return nextBestActionBody(reply, view, (v) => ok(nextBestActionJson(v)));
    },
  );

  app.get('/tenant/adoption/coverage', { schema: { response: coverageResponse } }, async (request, reply) => {
    const coverage = await unaryCall(
      adoption,
      'GetCoverage',
      {},
      { authorization: callerOf(request).authorization },
    );
    return coverageBody(reply, coverage, (c) => ok({ cells: c.cells.map(coverageCellJson) }));
  });

  app.get(
    '/tenant/adoption/risk-signals',
    { schema: { querystring: RiskSignalsQuery, response: riskSignalsResponse } },
    async (request, reply) => {
      const { limit } = request.query;
      const list = await unaryCall(
        adoption,
        'ListRiskSignals',
        limit === undefined ? {} : { limit: Number(limit) },
        { authorization: callerOf(request).authorization },
      );
      return riskSignalsBody(reply, list, (l) => ok({ signals: l.signals.map(riskSignalJson) }));
    },
  );

  app.get(
    '/tenant/adoption/health-explanation',
    { schema: { response: healthExplanationResponse } },
    async (request, reply) => {
      const explanation = await unaryCall(
        adoption,
        'GetHealthExplanation',
        {},
        { authorization: callerOf(request).authorization },
      );
      return explanationBody(reply, explanation, (e) => ok(healthExplanationJson(e)));
    },
  );

  await adoptionPlanRoutes(app, options);
}
