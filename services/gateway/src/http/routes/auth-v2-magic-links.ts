import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { open } from '../auth/access.js';
import { clientAddressKey } from '../auth/client-address.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit } from '../auth/auth-limits.js';
import { allowMagicLinkForAccount } from '../auth/login-throttle.js';
import { sessionClientOf } from '../auth/session-client.js';
import { cookieSessionUser } from '../browser/cookie-user.js';
import { gatewayError } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';
import {
  browserOperation,
  registerBrowserRoutes,
  startCookieSession,
  type AuthV2Options,
} from './auth-v2.js';
import { routesOf } from './define-route.js';
import { MagicLinkRequestBody, RedeemBody, SignupBody } from './identity-request-schemas.js';
import { messageResponse, redeemResponse } from './identity-schemas.js';

/** The one answer of request, whatever the address (spec: "Magic-link sign-in" 1). */
export const MAGIC_LINK_SENT = 'If an account exists for that address, a sign-in link is on its way.';
export const SIGNUP_LINK_SENT = 'Check your inbox: a link to finish signing up is on its way.';

const invalidOrExpired = () => gatewayError('INVALID_OR_EXPIRED');

const route = routesOf<AuthV2Options>();

/**
 * The handler of a link request (sign-in or sign-up): the address's limit, then the account's,
 * then `send`; the answer is `message` whatever happened, so it tells nothing of the address.
 */
const sendLink =
  <B extends { email: string }>(
    send: (clients: AuthV2Options['clients'], body: B) => Promise<unknown>,
    message: string,
  ) =>
  ({ clients, limiter }: AuthV2Options) =>
  async (request: FastifyRequest & { readonly body: B }, reply: FastifyReply) => {
    await enforceAuthLimit(limiter, 'magicLink', `ip:${clientAddressKey(request.ip)}`, reply);
    if (await allowMagicLinkForAccount(request, limiter, request.body.email))
      await send(clients, request.body);
    return { success: true as const, message };
  };

/**
 * Magic links: request (sign-in), signup (passwordless sign-up intent) and redeem. Identity
 * answers request and signup before it looks anything up and mails the link afterwards, so
 * these answers take the same time whether or not the address has an account.
 */
export const MAGIC_LINK_ROUTES = [
  route('POST /auth/v2/magic-link/request', {
    schema: { body: MagicLinkRequestBody, response: messageResponse },
    access: open('Origin allowlist; always the same answer; limited'),
    operation: browserOperation(
      'requestMagicLink',
      'Mail a sign-in link (same answer whether or not the address has an account)',
      [429],
    ),
    handler: sendLink(
      (clients, body) => unaryCall(clients.identity, 'RequestMagicLink', { email: body.email }),
      MAGIC_LINK_SENT,
    ),
  }),
  route('POST /auth/v2/signup', {
    schema: { body: SignupBody, response: messageResponse },
    access: open('Origin allowlist; only sends a confirmation link; limited'),
    operation: browserOperation('startSignup', 'Mail a passwordless sign-up link', [429]),
    handler: sendLink((clients, body) => unaryCall(clients.identity, 'StartSignup', body), SIGNUP_LINK_SENT),
  }),
  route('POST /auth/v2/magic-link/redeem', {
    schema: { body: RedeemBody, response: redeemResponse },
    access: open('Origin allowlist; the single-use token is the credential'),
    // 400 INVALID_OR_EXPIRED; 403 also LIMIT_EXCEEDED (a sign-up's first seat); 429 per address.
    operation: browserOperation('redeemMagicLink', 'Redeem a magic-link token from the URL fragment', [429]),
    handler:
      ({ clients, limiter, browser }) =>
      async (request, reply) => {
        // The token travels in the JSON body only; one in the URL (logs, Referer) is refused unread.
        if (Object.hasOwn((request.query as object | undefined) ?? {}, 'token'))
          return sendHttpError(reply, invalidOrExpired());
        await enforceAddressLimit(limiter, 'redeem', request.ip, reply);
        const redeemed = await unaryCall(clients.identity, 'RedeemMagicLink', {
          token: request.body.token,
          client: sessionClientOf(request),
        });
        if (redeemed.outcome === 'PENDING_APPROVAL') {
          return {
            success: true as const,
            status: 'pending_approval' as const,
            message: 'Your request to join was sent to the company’s administrators.',
          };
        }
        const session = redeemed.session!;
        const user = await cookieSessionUser(clients, session.user!, session.accessToken);
        startCookieSession(reply, browser, session);
        // A sign-up link founded the company: the page says so (`tenantProvisioned`), same envelope.
        const tenantProvisioned = redeemed.tenantProvisioned === true;
        return {
          success: true as const,
          message: tenantProvisioned ? 'Your company was created and you are signed in' : 'Signed in',
          data: { user, tenantProvisioned },
        };
      },
  }),
] as const;

/** Registers MAGIC_LINK_ROUTES behind the browser surface's checks. */
export async function authV2MagicLinkRoutes(app: FastifyInstance, options: AuthV2Options): Promise<void> {
  registerBrowserRoutes(app, MAGIC_LINK_ROUTES, options);
}
