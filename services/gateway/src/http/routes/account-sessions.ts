import { unaryCall } from '@tap/grpc-kit';
import { anyUser, managers } from '../auth/access.js';
import { forwardedAuth } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { noContent } from '../openapi/responses.js';
import { MemberParams, SessionParams } from './identity-request-schemas.js';
import { listSessionsResponse, revokedCountResponse } from './identity-schemas.js';
import { clientsRoute as route } from './team-deps.js';

/**
 * A signed-in user's own sessions (list, end one, end all the others) and a manager's "end every
 * session of this member". An ended session's refresh family stops at once and its access tokens
 * are refused through the revocation list (docs/browser-sessions.md "Your sessions").
 */
export const ACCOUNT_SESSION_ROUTES = [
  route('GET /auth/sessions', {
    schema: { response: listSessionsResponse },
    access: anyUser("the caller's own sessions; a client token has none"),
    operation: { operationId: 'listSessions', tag: 'auth-v1', summary: "The caller's own sessions" },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const listed = await unaryCall(clients.identity, 'ListSessions', {}, forwardedAuth(request));
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
      },
  }),
  route('DELETE /auth/sessions/:id', {
    schema: { params: SessionParams },
    access: anyUser("ends one of the caller's own sessions"),
    operation: {
      operationId: 'endSession',
      tag: 'auth-v1',
      summary: "End one of the caller's own sessions",
      // 404 SESSION_NOT_FOUND: none of the caller's.
      errors: [404],
      extraResponses: noContent('Ended'),
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        await unaryCall(clients.identity, 'EndSession', { id: request.params.id }, forwardedAuth(request));
        return reply.status(204).send();
      },
  }),
  route('POST /auth/sessions/revoke-others', {
    schema: { response: revokedCountResponse },
    access: anyUser("ends the caller's other sessions"),
    operation: {
      operationId: 'endOtherSessions',
      tag: 'auth-v1',
      summary: 'End every session of the caller but the current one',
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ended = await unaryCall(clients.identity, 'EndOtherSessions', {}, forwardedAuth(request));
        void reply.header('cache-control', 'no-store');
        return ok({ revoked: ended.revoked });
      },
  }),
  route('DELETE /tenant/members/:userId/sessions', {
    schema: { params: MemberParams, response: revokedCountResponse },
    access: managers("ends a member's sessions (an ADMIN not an OWNER's)"),
    operation: {
      operationId: 'endMemberSessions',
      tag: 'tenant',
      summary: "End every session of a member (OWNER or ADMIN; an ADMIN not an OWNER's)",
      // 404 USER_NOT_FOUND: no such member of this tenant.
      errors: [404],
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { userId: request.params.userId };
        const ended = await unaryCall(clients.identity, 'EndMemberSessions', ref, forwardedAuth(request));
        void reply.header('cache-control', 'no-store');
        return ok({ revoked: ended.revoked });
      },
  }),
] as const;
