import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { authenticate } from '@tap/service-auth';
import { assertCredentialShape } from '../domain/credential-shape.js';
import { identityErrors } from '../domain/errors.js';
import { parseChannel, type SessionChannel } from '../domain/session.js';
import { issueClientToken } from '../operations/issue-client-token.js';
import { login } from '../operations/login.js';
import { logout } from '../operations/logout.js';
import type { IssuedSession } from '../operations/open-session.js';
import { refreshSession } from '../operations/refresh-session.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { sessionClientOf } from './session-wire.js';
import { userToWire } from './wire.js';

const sessionToWire = (issued: IssuedSession) => ({
  accessToken: issued.accessToken,
  expiresIn: issued.expiresIn,
  refreshToken: issued.refreshToken,
  user: userToWire(issued.user),
});

/**
 * The token endpoints' RPCs. Login, Refresh and IssueClientToken carry no token (the caller is
 * proving who it is); the gateway in front of them applies the spec's per-IP, per-token and
 * per-client limits.
 */
export function sessionHandlers(
  deps: IdentityHandlerDeps,
): Pick<IdentityServiceHandlers, 'Login' | 'Refresh' | 'Logout' | 'IssueClientToken'> {
  const { ctx, logger } = deps;
  return {
    Login: unaryHandler('IdentityService/Login', logger, async (request) => {
      assertCredentialShape('email', request.email);
      assertCredentialShape('password', request.password);
      return sessionToWire(
        await login(
          ctx,
          request.email,
          request.password,
          channelOf(request.channel),
          sessionClientOf(request.client),
        ),
      );
    }),

    Refresh: unaryHandler('IdentityService/Refresh', logger, async (request) =>
      sessionToWire(await refreshSession(ctx, request.refreshToken, channelOf(request.channel))),
    ),

    Logout: unaryHandler('IdentityService/Logout', logger, async (_request, call) => {
      await logout(ctx, await authenticate(call.metadata, deps.signatureVerifier));
      return {};
    }),

    IssueClientToken: unaryHandler('IdentityService/IssueClientToken', logger, async (request) => {
      assertCredentialShape('clientId', request.clientId);
      assertCredentialShape('clientSecret', request.clientSecret);
      assertCredentialShape('scope', request.scope);
      const issued = await issueClientToken(ctx, {
        clientId: request.clientId,
        clientSecret: request.clientSecret,
        scope: request.scope,
      });
      return { accessToken: issued.accessToken, expiresIn: issued.expiresIn, scope: issued.scopes.join(' ') };
    }),
  };
}

function channelOf(value: string): SessionChannel {
  const channel = parseChannel(value);
  if (!channel) throw identityErrors.create('SESSION_CHANNEL_INVALID');
  return channel;
}
