import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SuccessPlanView__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';
import { adoptionStateJson, successPlanJson } from './adoption-json.js';
import { CreatePlanBody, RenewPlanBody } from './adoption-request-schemas.js';
import { createPlanResponse, getPlanResponse, stateResponse } from './adoption-response-schemas.js';
import { callerOf } from '../auth/caller.js';
import type { AnswerCache } from '../answer-cache.js';
import { jsonBodyMemo } from '../reply-json-memo.js';
import { sendTenantAnswer } from '../tenant-answer.js';

/**
 * Success-plan endpoints, registered by adoptionRoutes; the route table authenticates them. Create
 * answers 201 with the new plan (the spec leaves the body open); roles and the one-ACTIVE-plan
 * rule are the adoption service's (403 ROLE_FORBIDDEN, 409 PLAN_ALREADY_ACTIVE). The read's answer
 * is kept like adoption's other reads (`answers`); create and renew tell it the tenant changed.
 */
export async function adoptionPlanRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients; answers: AnswerCache },
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { adoption } = options.clients;
  const { answers } = options;
  const planBody = jsonBodyMemo<SuccessPlanView__Output>();

  app.get(
    '/tenant/adoption/success-plan',
    { schema: { response: getPlanResponse } },
    async (request, reply) => {
      const { claims, authorization } = callerOf(request);
      return sendTenantAnswer(reply, answers, claims.tenantId, 'success-plan', async () => {
        const view = await unaryCall(adoption, 'GetSuccessPlan', {}, { authorization });
        return planBody(reply, view, (v) => ok(v.plan ? successPlanJson(v.plan) : null));
      });
    },
  );

  app.post(
    '/tenant/adoption/success-plan',
    { schema: { body: CreatePlanBody, response: createPlanResponse } },
    async (request, reply) => {
      const { title, targetDate, objectives } = request.body;
      const { claims, authorization } = callerOf(request);
      const plan = await unaryCall(
        adoption,
        'CreateSuccessPlan',
        // `met` is not forwarded: it is computed from the milestones, never taken from a caller.
        {
          title,
          targetDate,
          objectives: objectives.map((o) => ({ label: o.label, milestoneKeys: o.milestoneKeys })),
        },
        { authorization },
      ).finally(() => answers.changed(claims.tenantId));
      return reply.status(201).send(ok(successPlanJson(plan)));
    },
  );

  app.post(
    '/tenant/adoption/success-plan/renew',
    { schema: { body: RenewPlanBody, response: stateResponse } },
    async (request) => {
      const { fromPlanId, targetDate } = request.body;
      const { claims, authorization } = callerOf(request);
      const state = await unaryCall(
        adoption,
        'RenewSuccessPlan',
        { fromPlanId, ...(targetDate === undefined ? {} : { targetDate }) },
        { authorization },
      ).finally(() => answers.changed(claims.tenantId));
      return ok(adoptionStateJson(state));
    },
  );
}
