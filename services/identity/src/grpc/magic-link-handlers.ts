import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { assertCredentialShape } from '../domain/credential-shape.js';
import { identityErrors } from '../domain/errors.js';
import { approveJoinRequest } from '../operations/approve-join-request.js';
import { claimJoinDomain } from '../operations/claim-join-domain.js';
import { listJoinRequests } from '../operations/list-join-requests.js';
import type { MagicLinkMail, RedeemOutcome } from '../operations/magic-link.js';
import { redeemMagicLink } from '../operations/redeem-magic-link.js';
import { requestMagicLink } from '../operations/request-magic-link.js';
import { ssoSignIn } from '../operations/sso-sign-in.js';
import { checkSignUpInput, startSignup } from '../operations/start-signup.js';
import { auditActorOf, managedTenant, resolveCaller } from './caller.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { sessionClientOf } from './session-wire.js';
import { joinRequestToWire, userToWire } from './wire.js';

type MagicLinkRpcs =
  | 'RequestMagicLink'
  | 'StartSignup'
  | 'RedeemMagicLink'
  | 'ClaimJoinDomain'
  | 'ListJoinRequests'
  | 'ApproveJoinRequest'
  | 'SsoSignIn';

function outcomeToWire(redeemed: RedeemOutcome) {
  if (redeemed.outcome !== 'SIGNED_IN')
    return { outcome: redeemed.outcome, session: null, tenantProvisioned: false };
  const { session } = redeemed;
  return {
    outcome: redeemed.outcome,
    tenantProvisioned: redeemed.tenantProvisioned === true,
    session: {
      accessToken: session.accessToken,
      expiresIn: session.expiresIn,
      refreshToken: session.refreshToken,
      user: userToWire(session.user),
    },
  };
}

/**
 * Magic links and join requests. Request and StartSignup answer before any lookup: the link is
 * made and mailed afterwards (a failure is logged, without the address or token), so the answer
 * neither says nor, by its timing, hints whether the address has an account.
 */
export function magicLinkHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, MagicLinkRpcs> {
  const { ctx, logger, mail } = deps;
  const offThePath = (work: (mail: MagicLinkMail) => Promise<void>) => {
    if (!mail) {
      logger.error({}, 'a magic link was asked for, but no mail is configured');
      return;
    }
    setImmediate(() => {
      work(mail).catch((error: unknown) => {
        if (identityErrors.is(error, 'EMAIL_INVALID')) return;
        logger.error({ err: (error as Error).message }, 'a magic link could not be sent');
      });
    });
  };
  const auth = { verifier: deps.verifier, operatorTokens: deps.operatorTokens };
  return {
    RequestMagicLink: unaryHandler('IdentityService/RequestMagicLink', logger, async (request) => {
      // Shape only (length, no control characters): says nothing about whether an account exists.
      assertCredentialShape('email', request.email);
      offThePath((m) => requestMagicLink(ctx, m, request.email));
      return {};
    }),

    StartSignup: unaryHandler('IdentityService/StartSignup', logger, async (request) => {
      const input = {
        email: request.email,
        companyName: request.companyName,
        firstName: request.firstName,
        lastName: request.lastName,
      };
      checkSignUpInput(input);
      offThePath((m) => startSignup(ctx, m, input));
      return {};
    }),

    RedeemMagicLink: unaryHandler('IdentityService/RedeemMagicLink', logger, async (request) =>
      outcomeToWire(await redeemMagicLink(ctx, request.token, sessionClientOf(request.client))),
    ),

    SsoSignIn: unaryHandler('IdentityService/SsoSignIn', logger, async (request) =>
      outcomeToWire(
        await ssoSignIn(
          ctx,
          mail,
          {
            provider: request.provider,
            subject: request.subject,
            email: request.email,
            emailVerified: request.emailVerified,
            givenName: request.givenName,
            familyName: request.familyName,
          },
          sessionClientOf(request.client),
        ),
      ),
    ),

    ClaimJoinDomain: unaryHandler('IdentityService/ClaimJoinDomain', logger, async (request, call) => {
      const caller = await resolveCaller(call.metadata, auth);
      if (caller.kind !== 'operator') throw identityErrors.create('USER_TOKEN_REQUIRED');
      await claimJoinDomain(ctx, request.tenantId, request.domain);
      return {};
    }),

    ListJoinRequests: unaryHandler('IdentityService/ListJoinRequests', logger, async (request, call) => {
      const tenantId = managedTenant(await resolveCaller(call.metadata, auth), request.tenantId);
      return { requests: (await listJoinRequests(ctx, tenantId)).map(joinRequestToWire) };
    }),

    ApproveJoinRequest: unaryHandler('IdentityService/ApproveJoinRequest', logger, async (request, call) => {
      const caller = await resolveCaller(call.metadata, auth);
      const tenantId = managedTenant(caller, request.tenantId);
      return joinRequestToWire(
        await approveJoinRequest(ctx, tenantId, request.id, await auditActorOf(ctx, caller)),
      );
    }),
  };
}
