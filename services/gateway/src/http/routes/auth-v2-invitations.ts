import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { sessionClientOf } from '../auth/session-client.js';
import { cookieSessionUser } from '../browser/cookie-user.js';
import { enforceOriginAllowlist } from '../browser/origin-allowlist.js';
import { newCsrfToken, setSessionCookies } from '../browser/session-cookies.js';
import { ok } from '../envelope.js';
import { gatewayError } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { useErrorStyle } from '../plugins/error-handler.js';
import type { AuthV2Options } from './auth-v2.js';
import { AcceptInvitationBody, InvitationTokenBody } from './identity-request-schemas.js';
import { acceptInvitationResponse, inspectInvitationResponse } from './identity-schemas.js';

/**
 * The invitee's side of an invitation (the console's /console/accept-invitation page): inspect
 * what the link offers, then accept it, which signs in like a magic link (cookie session). The
 * single-use token is the credential and travels in the JSON body only; both routes sit behind
 * the Origin allowlist and the per-address limit of link redemptions.
 */
export async function authV2InvitationRoutes(
  instance: FastifyInstance,
  options: AuthV2Options,
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { clients, limiter, browser } = options;
  useErrorStyle(instance, 'v2');
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', enforceOriginAllowlist(browser.allowedOrigins));
  // A token in the URL (logs, Referer) is refused unread, as for magic links.
  const tokenInUrl = (query: unknown) => Object.hasOwn((query as object | undefined) ?? {}, 'token');

  app.post(
    '/auth/v2/invitations/inspect',
    { schema: { body: InvitationTokenBody, response: inspectInvitationResponse } },
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
  );

  app.post(
    '/auth/v2/invitations/accept',
    { schema: { body: AcceptInvitationBody, response: acceptInvitationResponse } },
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
      setSessionCookies(
        reply,
        { domain: browser.cookieDomain },
        { accessToken: session.accessToken, refreshToken: session.refreshToken, csrfToken: newCsrfToken() },
      );
      return ok({ outcome: 'SIGNED_IN' as const, user });
    },
  );
}
