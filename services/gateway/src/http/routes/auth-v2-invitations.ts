import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import { open } from '../auth/access.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { sessionClientOf } from '../auth/session-client.js';
import { cookieSessionUser } from '../browser/cookie-user.js';
import { ok } from '../envelope.js';
import { gatewayError } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';
import {
  browserOperation,
  registerBrowserRoutes,
  startCookieSession,
  type AuthV2Options,
} from './auth-v2.js';
import { routesOf } from './define-route.js';
import { AcceptInvitationBody, InvitationTokenBody } from './identity-request-schemas.js';
import { acceptInvitationResponse, inspectInvitationResponse } from './identity-schemas.js';

const route = routesOf<AuthV2Options>();
/** A token in the URL (logs, Referer) is refused unread, as for magic links. */
const tokenInUrl = (query: unknown) => Object.hasOwn((query as object | undefined) ?? {}, 'token');

/**
 * The invitee's side of an invitation (the console's /console/accept-invitation page): inspect
 * what the link offers, then accept it, which signs in like a magic link (cookie session). The
 * single-use token is the credential and travels in the JSON body only; both routes sit behind
 * the Origin allowlist and the per-address limit of link redemptions.
 */
export const INVITATION_ACCEPT_ROUTES = [
  route('POST /auth/v2/invitations/inspect', {
    schema: { body: InvitationTokenBody, response: inspectInvitationResponse },
    access: open('Origin allowlist; the single-use token is the credential'),
    // 400 INVALID_OR_EXPIRED; 429 per address.
    operation: browserOperation(
      'inspectInvitation',
      'What an invitation token offers (it stays usable)',
      [429],
    ),
    handler:
      ({ clients, limiter }) =>
      async (request, reply) => {
        if (tokenInUrl(request.query)) return sendHttpError(reply, gatewayError('INVALID_OR_EXPIRED'));
        await enforceAddressLimit(limiter, 'redeem', request.ip, reply);
        const preview = await unaryCall(clients.identity, 'InspectInvitation', { token: request.body.token });
        void reply.header('cache-control', 'no-store');
        return ok({
          invitation: {
            email: preview.email,
            role: preview.role,
            tenantName: preview.tenantName,
            expiresAt: preview.expiresAt,
            existingAccount: preview.existingAccount,
          },
        });
      },
  }),
  route('POST /auth/v2/invitations/accept', {
    schema: { body: AcceptInvitationBody, response: acceptInvitationResponse },
    access: open('Origin allowlist; the single-use token is the credential'),
    // 403 also LIMIT_EXCEEDED (no seat left); 409 ALREADY_MEMBER, LINK_CONFIRMATION_REQUIRED,
    // ACCOUNT_OWNS_TENANT or EMAIL_TAKEN; 429 per address.
    operation: browserOperation(
      'acceptInvitation',
      'Accept an invitation: creates or links the account, takes a seat, sets the session cookies',
      [409, 429],
    ),
    handler:
      ({ clients, limiter, browser }) =>
      async (request, reply) => {
        if (tokenInUrl(request.query)) return sendHttpError(reply, gatewayError('INVALID_OR_EXPIRED'));
        await enforceAddressLimit(limiter, 'redeem', request.ip, reply);
        const { body } = request;
        const accepted = await unaryCall(clients.identity, 'AcceptInvitation', {
          token: body.token,
          firstName: body.firstName ?? '',
          lastName: body.lastName ?? '',
          password: body.password ?? '',
          confirmLink: body.confirmLink === true,
          client: sessionClientOf(request),
        });
        const session = accepted.session!;
        const user = await cookieSessionUser(clients, session.user!, session.accessToken);
        startCookieSession(reply, browser, session);
        return ok({ outcome: 'SIGNED_IN' as const, user });
      },
  }),
] as const;

/** Registers INVITATION_ACCEPT_ROUTES behind the browser surface's checks. */
export async function authV2InvitationRoutes(app: FastifyInstance, options: AuthV2Options): Promise<void> {
  registerBrowserRoutes(app, INVITATION_ACCEPT_ROUTES, options);
}
