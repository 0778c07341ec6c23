import { isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { enforceAuthLimit } from '../auth/auth-limits.js';
import { parseForm, parseTokenRequest, type FormParameters } from '../auth/token-request.js';
import { useOAuthErrors } from '../plugins/oauth-errors.js';

const FORM = 'application/x-www-form-urlencoded';

/**
 * `POST /oauth/token`: the OAuth 2.0 client credentials grant, form-encoded only. The answer is
 * RFC 6749's, not the API envelope: `{ access_token, token_type, expires_in, scope }`.
 */
export async function oauthTokenRoutes(
  app: FastifyInstance,
  options: { clients: ServiceClients; limiter: RateLimiter },
): Promise<void> {
  useOAuthErrors(app);
  // Form bodies only: JSON, text and anything else are refused as invalid_request.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(FORM, { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseForm(body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  app.post<{ Body: FormParameters | undefined }>('/oauth/token', async (request, reply) => {
    const grant = parseTokenRequest(request.body, request.headers.authorization);
    await enforceAuthLimit(options.limiter, 'token', `client:${grant.clientId}`, reply);
    try {
      const issued = await unaryCall(options.clients.identity, 'IssueClientToken', {
        clientId: grant.clientId,
        clientSecret: grant.clientSecret,
        scope: grant.scope,
      });
      return {
        access_token: issued.accessToken,
        token_type: 'Bearer',
        expires_in: issued.expiresIn,
        scope: issued.scope,
      };
    } catch (error) {
      // RFC 6749 §5.2: a client that failed to authenticate with Basic gets the matching challenge.
      if (grant.viaBasic && isRemoteCallError(error) && error.reason === 'CLIENT_AUTH_FAILED') {
        void reply.header('www-authenticate', 'Basic realm="tap", charset="UTF-8"');
      }
      throw error;
    }
  });
}
