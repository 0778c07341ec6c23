import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { MemberParams, SessionParams } from './identity-request-schemas.js';
import { listSessionsResponse, revokedCountResponse } from './identity-schemas.js';

/**
 * A signed-in user's own sessions (list, end one, end all the others) and a manager's "end every
 * session of this member". An ended session's refresh family stops at once and its access tokens
 * are refused through the revocation list (docs/browser-sessions.md "Your sessions").
 */
export async function accountSessionRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { identity } = options.clients;
  app.removeContentTypeParser('text/plain');
  const as = (request: Parameters<typeof callerOf>[0]) => ({
    authorization: callerOf(request).authorization,
  });

  app.get('/auth/sessions', { schema: { response: listSessionsResponse } }, async (request, reply) => {
    const listed = await unaryCall(identity, 'ListSessions', {}, as(request));
    void reply.header('cache-control', 'no-store');
    return ok({
      sessions: listed.sessions.map((session) => ({
        id: session.id,
        userAgent: session.userAgent,
        address: session.address,
        createdAt: session.createdAt,
        lastUsedAt: session.lastUsedAt === '' ? null : session.lastUsedAt,
        current: session.current,
      })),
    });
  });

  app.delete('/auth/sessions/:id', { schema: { params: SessionParams } }, async (request, reply) => {
    await unaryCall(identity, 'EndSession', { id: request.params.id }, as(request));
    return reply.status(204).send();
  });

  app.post(
    '/auth/sessions/revoke-others',
    { schema: { response: revokedCountResponse } },
    async (request, reply) => {
      const ended = await unaryCall(identity, 'EndOtherSessions', {}, as(request));
      void reply.header('cache-control', 'no-store');
      return ok({ revoked: ended.revoked });
    },
  );

  app.delete(
    '/tenant/members/:userId/sessions',
    { schema: { params: MemberParams, response: revokedCountResponse } },
    async (request, reply) => {
      const ended = await unaryCall(
        identity,
        'EndMemberSessions',
        { userId: request.params.userId },
        as(request),
      );
      void reply.header('cache-control', 'no-store');
      return ok({ revoked: ended.revoked });
    },
  );
}
