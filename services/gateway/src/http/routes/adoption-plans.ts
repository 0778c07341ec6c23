import { unaryCall } from '@tap/grpc-kit';
import { managers } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { adoptionStateJson, successPlanJson } from './adoption-json.js';
import { ADOPTION_READ, tenantRead, type AdoptionDeps } from './adoption-read.js';
import { CreatePlanBody, RenewPlanBody } from './adoption-request-schemas.js';
import { createPlanResponse, getPlanResponse, stateResponse } from './adoption-response-schemas.js';
import { operation, routesOf } from './define-route.js';

const route = routesOf<AdoptionDeps>();

/**
 * Success-plan endpoints, part of ADOPTION_ROUTES. Create answers 201 with the new plan (the
 * spec leaves the body open); roles and the one-ACTIVE-plan rule are the adoption service's
 * (403 ROLE_FORBIDDEN, 409 PLAN_ALREADY_ACTIVE). The read's answer is kept like adoption's
 * other reads; create and renew tell the cache the tenant changed.
 */
export const ADOPTION_PLAN_ROUTES = [
  route('GET /tenant/adoption/success-plan', {
    schema: { response: getPlanResponse },
    access: ADOPTION_READ,
    operation: operation('adoption', 'getSuccessPlan', 'The active success plan or null'),
    handler: (deps) =>
      tenantRead(
        deps,
        () => 'success-plan',
        (adoption, authorization) => unaryCall(adoption, 'GetSuccessPlan', {}, { authorization }),
        (v) => (v.plan ? successPlanJson(v.plan) : null),
      ),
  }),
  route('POST /tenant/adoption/success-plan', {
    schema: { body: CreatePlanBody, response: createPlanResponse },
    access: managers('spec: role OWNER or ADMIN'),
    // 404 PLAN_UNKNOWN_MILESTONES; 409 PLAN_ALREADY_ACTIVE.
    operation: operation(
      'adoption',
      'createSuccessPlan',
      'Create a success plan (OWNER or ADMIN); 409 if one is active',
      [404, 409],
    ),
    handler:
      ({ clients, answers }) =>
      async (request, reply) => {
        const { title, targetDate, objectives } = request.body;
        const { claims, authorization } = callerOf(request);
        const plan = await unaryCall(
          clients.adoption,
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
  }),
  route('POST /tenant/adoption/success-plan/renew', {
    schema: { body: RenewPlanBody, response: stateResponse },
    access: managers('as create: it replaces the active plan'),
    // 404 PLAN_NOT_FOUND (no such plan of this tenant); 409 PLAN_NOT_ACTIVE.
    operation: operation(
      'adoption',
      'renewSuccessPlan',
      'Renew a success plan; the recomputed state',
      [404, 409],
    ),
    handler:
      ({ clients, answers }) =>
      async (request) => {
        const { fromPlanId, targetDate } = request.body;
        const { claims, authorization } = callerOf(request);
        const state = await unaryCall(
          clients.adoption,
          'RenewSuccessPlan',
          { fromPlanId, ...(targetDate === undefined ? {} : { targetDate }) },
          { authorization },
        ).finally(() => answers.changed(claims.tenantId));
        return ok(adoptionStateJson(state));
      },
  }),
] as const;
