import type { AdoptionState__Output, Milestone__Output } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { ok } from '../envelope.js';

/** The spec's Milestone resource from the wire message. */
export function milestoneJson(m: Milestone__Output) {
  return {
    key: m.key,
    chapter: m.chapter,
    internalStage: m.internalStage,
    status: m.status,
    completionMode: m.completionMode,
    triggerEvent: m.triggerEvent || null,
    dependsOn: m.dependsOn,
    displayOrder: m.displayOrder,
    requiredCapability: m.requiredCapability ?? null,
    paidTeaser: m.paidTeaser,
    lockedReasons: m.lockedReasons.map((r) => ({ unmetDependencyKey: r.unmetDependencyKey })),
    completedAt: m.completedAt ?? null,
    upgradeContext: null,
  };
}

/** The spec's Adoption state resource from the wire message. */
export function adoptionStateJson(s: AdoptionState__Output) {
  return {
    companyId: s.companyId,
    currentMaturityRung: s.currentMaturityRung,
    pathProfile: s.pathProfile,
    healthScore: s.healthScore ?? null,
    healthBand: s.healthBand,
    networkDensity: s.networkDensity,
    lastRecomputedAt: s.lastRecomputedAt,
    version: s.version,
    milestones: s.milestones.map(milestoneJson),
  };
}

const keyParams = {
  type: 'object',
  required: ['key'],
  properties: { key: { type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.-]+$' } },
};

const completeBody = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: {
    evidenceRef: { type: 'string', maxLength: 500 },
    expectedVersion: { type: 'integer', minimum: 0 },
  },
};

/** Tenant-scoped adoption endpoints; the tenant always comes from the verified token. */
export async function adoptionRoutes(app: FastifyInstance, options: { clients: ServiceClients }): Promise<void> {
  const { adoption } = options.clients;
  app.addHook('onRequest', app.authenticate);

  app.get('/tenant/adoption/state', async (request) => {
    const state = await unaryCall(adoption, 'GetState', {}, { authorization: request.auth!.authorization });
    return ok(adoptionStateJson(state));
  });

  app.post<{ Params: { key: string }; Body: { evidenceRef?: string; expectedVersion?: number } | null }>(
    '/tenant/adoption/milestones/:key/complete',
    { schema: { params: keyParams, body: completeBody } },
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
        { authorization: request.auth!.authorization },
      );
      return ok(adoptionStateJson(state));
    },
  );
}
