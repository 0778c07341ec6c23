import { unaryCall } from '@tap/grpc-kit';
import { managers } from '../auth/access.js';
import { callerOf, forwardedAuth } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { JoinRequestParams } from './identity-request-schemas.js';
import { approveJoinRequestResponse, listJoinRequestsResponse } from './identity-schemas.js';
import { rejectJoinRequestResponse } from './member-schemas.js';
import { seatLimitError } from './seat-limit.js';
import { operation } from './define-route.js';
import { clientsRoute as route } from './team-deps.js';

/**
 * Join requests of the caller's tenant (sign-ups from a domain that gates joins): an OWNER or
 * ADMIN lists the pending ones, approves (a seat is taken: 403 LIMIT_EXCEEDED with the upgrade
 * context when none is left) or rejects one; identity checks the role again.
 */
export const JOIN_REQUEST_ROUTES = [
  route('GET /tenant/join-requests', {
    schema: { response: listJoinRequestsResponse },
    access: managers('who asks to join the company'),
    operation: operation('tenant', 'listJoinRequests', 'Pending join requests (OWNER or ADMIN)'),
    handler:
      ({ clients }) =>
      async (request) => {
        const listed = await unaryCall(
          clients.identity,
          'ListJoinRequests',
          { tenantId: '' },
          forwardedAuth(request),
        );
        return ok({ requests: listed.requests.map(({ tenantId: _tenantId, ...rest }) => rest) });
      },
  }),
  route('POST /tenant/join-requests/:id/approve', {
    schema: { params: JoinRequestParams, response: approveJoinRequestResponse },
    access: managers('admits a user to the company (takes a seat)'),
    // 404 JOIN_REQUEST_NOT_FOUND (none pending with that id in this tenant).
    operation: operation('tenant', 'approveJoinRequest', 'Approve a join request (OWNER or ADMIN)', [404]),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const { authorization } = callerOf(request);
        try {
          const { tenantId: _tenantId, ...approved } = await unaryCall(
            clients.identity,
            'ApproveJoinRequest',
            { tenantId: '', id: request.params.id },
            { authorization },
          );
          return ok(approved);
        } catch (error) {
          // No seat left: 403 LIMIT_EXCEEDED with the upgrade context; the request stays pending.
          const refused = await seatLimitError(error, clients, authorization);
          if (refused) return sendHttpError(reply, refused);
          throw error;
        }
      },
  }),
  route('POST /tenant/join-requests/:id/reject', {
    schema: { params: JoinRequestParams, response: rejectJoinRequestResponse },
    access: managers('turns a join request down'),
    operation: operation(
      'tenant',
      'rejectJoinRequest',
      'Reject a pending join request (OWNER or ADMIN)',
      [404],
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const { tenantId: _tenantId, ...rejected } = await unaryCall(
          clients.identity,
          'RejectJoinRequest',
          { id: request.params.id },
          forwardedAuth(request),
        );
        return ok({ request: rejected });
      },
  }),
] as const;
