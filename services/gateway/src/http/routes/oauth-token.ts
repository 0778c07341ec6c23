import { createHash } from 'node:crypto';
import { isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import type { RateLimiter } from '@tap/ratelimit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { open } from '../auth/access.js';
import { enforceAddressLimit } from '../auth/address-limits.js';
import { enforceAuthLimit } from '../auth/auth-limits.js';
import { parseForm, parseTokenRequest, type FormParameters } from '../auth/token-request.js';
import { useOAuthErrors } from '../plugins/oauth-errors.js';
import { registerRoutes, routesOf } from './define-route.js';
import { tokenResponse } from './identity-schemas.js';

const FORM = 'application/x-www-form-urlencoded';

export interface TokenDeps {
  readonly clients: ServiceClients;
  readonly limiter: RateLimiter;
}
const route = routesOf<TokenDeps>();

/**
 * `POST /oauth/token`: the OAuth 2.0 client credentials grant, form-encoded only. The answer is
 * RFC 6749's, not the API envelope: `{ access_token, token_type, expires_in, scope }`.
 */
export const OAUTH_TOKEN_ROUTES = [
  route('POST /oauth/token', {
    access: open('client credentials in the body; limited per client'),
    operation: {
      operationId: 'issueClientToken',
      tag: 'oauth',
      summary: 'Client credentials grant: a bearer token for an OAuth client',
      errorStyle: 'oauth',
      // 401 invalid_client; 429 the address's or the client's limit.
      errors: [401, 429],
      // RFC 6749 §5.1. The route sets no response schema; its handler writes exactly these fields.
      extraResponses: tokenResponse,
    },
    handler:
      ({ clients, limiter }) =>
      async (request, reply) => {
        await enforceAddressLimit(limiter, 'token', request.ip, reply);
        const grant = parseTokenRequest(
          request.body as FormParameters | undefined,
          request.headers.authorization,
        );
        await enforceAuthLimit(limiter, 'token', clientSubject(grant.clientId), reply);
        try {
          const issued = await unaryCall(clients.identity, 'IssueClientToken', {
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
      },
  }),
] as const;

/** Registers OAUTH_TOKEN_ROUTES: OAuth-style errors, form bodies only. */
export async function oauthTokenRoutes(app: FastifyInstance, options: TokenDeps): Promise<void> {
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
  registerRoutes(app, OAUTH_TOKEN_ROUTES, options);
}

/** The client id is the caller's text: hashed before it is part of a Redis key name. */
function clientSubject(clientId: string): string {
  return `client:${createHash('sha256').update(clientId, 'utf8').digest('base64url')}`;
}
