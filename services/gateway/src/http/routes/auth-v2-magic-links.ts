import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import { clientAddressKey } from '../auth/client-address.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit } from '../auth/auth-limits.js';
import { allowMagicLinkForAccount } from '../auth/login-throttle.js';
import { sessionClientOf } from '../auth/session-client.js';
import { cookieSessionUser } from '../browser/cookie-user.js';
import { enforceOriginAllowlist } from '../browser/origin-allowlist.js';
import { newCsrfToken, setSessionCookies } from '../browser/session-cookies.js';
import { gatewayError } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';
import { useErrorStyle } from '../plugins/error-handler.js';
import type { AuthV2Options } from './auth-v2.js';
import { MagicLinkRequestBody, RedeemBody, SignupBody } from './identity-request-schemas.js';
import { messageResponse, redeemResponse } from './identity-schemas.js';

/** The one answer of request, whatever the address (spec: "Magic-link sign-in" 1). */
export const MAGIC_LINK_SENT = 'If an account exists for that address, a sign-in link is on its way.';
export const SIGNUP_LINK_SENT = 'Check your inbox: a link to finish signing up is on its way.';

const invalidOrExpired = () => gatewayError('INVALID_OR_EXPIRED');

/**
 * Magic links: request (sign-in), signup (passwordless sign-up intent) and redeem. Identity
 * answers request and signup before it looks anything up and mails the link afterwards, so
 * these answers take the same time whether or not the address has an account.
 */
export async function authV2MagicLinkRoutes(
  instance: FastifyInstance,
  options: AuthV2Options,
): Promise<void> {
  // Request and reply types come from the TypeBox schemas (identity-request-schemas.ts,
  // identity-schemas.ts).
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { clients, limiter, browser } = options;
  useErrorStyle(instance, 'v2');
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', enforceOriginAllowlist(browser.allowedOrigins));

  app.post(
    '/auth/v2/magic-link/request',
    { schema: { body: MagicLinkRequestBody, response: messageResponse } },
    async (request, reply) => {
      await enforceAuthLimit(limiter, 'magicLink', `ip:${clientAddressKey(request.ip)}`, reply);
      if (await allowMagicLinkForAccount(request, limiter, request.body.email))
        await unaryCall(clients.identity, 'RequestMagicLink', { email: request.body.email });
      return { success: true as const, message: MAGIC_LINK_SENT };
    },
  );

  app.post(
    '/auth/v2/signup',
    { schema: { body: SignupBody, response: messageResponse } },
    async (request, reply) => {
      await enforceAuthLimit(limiter, 'magicLink', `ip:${clientAddressKey(request.ip)}`, reply);
      if (await allowMagicLinkForAccount(request, limiter, request.body.email))
        await unaryCall(clients.identity, 'StartSignup', request.body);
      return { success: true as const, message: SIGNUP_LINK_SENT };
    },
  );

  app.post<{ Body: { token: string }; Querystring: Record<string, unknown> }>(
    '/auth/v2/magic-link/redeem',
    { schema: { body: RedeemBody, response: redeemResponse } },
    async (request, reply) => {
      // The token travels in the JSON body only; one in the URL (logs, Referer) is refused unread.
      if (Object.hasOwn(request.query ?? {}, 'token')) return sendHttpError(reply, invalidOrExpired());
      await enforceAddressLimit(limiter, 'redeem', request.ip, reply);
      const redeemed = await unaryCall(clients.identity, 'RedeemMagicLink', {
        token: request.body.token,
        client: sessionClientOf(request),
      });
      if (redeemed.outcome === 'PENDING_APPROVAL') {
        return {
          success: true,
          status: 'pending_approval',
          message: 'Your request to join was sent to the company’s administrators.',
        };
      }
      const session = redeemed.session!;
      const user = await cookieSessionUser(clients, session.user!, session.accessToken);
      setSessionCookies(
        reply,
        { domain: browser.cookieDomain },
        {
          accessToken: session.accessToken,
          refreshToken: session.refreshToken,
          csrfToken: newCsrfToken(),
        },
      );
      // A sign-up link founded the company: the page says so (`tenantProvisioned`), same envelope.
      const tenantProvisioned = redeemed.tenantProvisioned === true;
      return {
        success: true,
        message: tenantProvisioned ? 'Your company was created and you are signed in' : 'Signed in',
        data: { user, tenantProvisioned },
      };
    },
  );
}
