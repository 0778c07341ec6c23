import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import type { AnswerCache } from '../answer-cache.js';
import { anyToken } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { serialisedBody } from '../serialised-body.js';
import { sendTenantAnswer } from '../tenant-answer.js';

/** Who may read the journey: any token of the tenant. */
export const ADOPTION_READ = anyToken("a read of the tenant's own journey; no data scope describes it");

/** What the adoption routes are built from. */
export interface AdoptionDeps {
  readonly clients: ServiceClients;
  readonly answers: AnswerCache;
}

/**
 * The handler of one of adoption's tenant reads: the answer kept per tenant and `key`
 * (http/answer-cache.ts) while fresh, else `load` asked with the caller's token, mapped by
 * `json` into the envelope.
 */
export function tenantRead<S extends object, R extends FastifyRequest = FastifyRequest>(
  deps: AdoptionDeps,
  key: (request: R) => string,
  load: (adoption: ServiceClients['adoption'], authorization: string, request: R) => Promise<S>,
  json: (source: S) => unknown,
): (request: R, reply: FastifyReply) => Promise<FastifyReply> {
  return async (request, reply) => {
    const { claims, authorization } = callerOf(request);
    return sendTenantAnswer(reply, deps.answers, claims.tenantId, key(request), async () => {
      const source = await load(deps.clients.adoption, authorization, request);
      return serialisedBody(reply, ok(json(source)));
    });
  };
}
