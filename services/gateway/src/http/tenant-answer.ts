import type { FastifyReply } from 'fastify';
import { countAnswerCacheLookup } from '@tap/telemetry';
import type { AnswerCache } from './answer-cache.js';
import { sendJsonBody } from './serialised-body.js';

/**
 * Sends the tenant's read answer for `key`: the one the gateway keeps while it is fresh
 * (http/answer-cache.ts), else the body `load` asks the service for, kept unless the tenant
 * changed meanwhile. `key` names the route and every request input the answer depends on; the
 * tenant is the verified token's.
 */
export async function sendTenantAnswer(
  reply: FastifyReply,
  answers: AnswerCache,
  tenantId: string,
  key: string,
  load: () => Promise<Buffer>,
): Promise<FastifyReply> {
  const kept = answers.get(tenantId, key);
  const route = reply.request.routeOptions.url ?? 'unmatched';
  countAnswerCacheLookup(route, kept ? 'hit' : 'miss');
  if (kept) return sendJsonBody(reply, kept);
  const ticket = answers.ticket();
  const body = await load();
  answers.keep(tenantId, key, body, ticket);
  return sendJsonBody(reply, body);
}
