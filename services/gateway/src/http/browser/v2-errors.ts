import { GrpcStatus, isRemoteCallError } from '@tap/grpc-kit';
import { forwardedError, rateLimitExceeded } from '../errors/catalogue.js';
import type { HttpError } from '../errors/http-error.js';
import { toHttpError } from '../errors/map-error.js';
import { OAuthRequestError } from '../errors/oauth-request-error.js';

/**
 * /auth/v2 answers in the general error shape `{ success: false, error: { code, message } }`
 * (the cookie surface is JSON for a first-party page, not an OAuth client). A failed sign-in or
 * refresh is 401 with identity's reason as the code; the auth limits keep the rate-limit shape.
 * Routes choose it with `useErrorStyle(app, 'v2')` (plugins/error-handler.ts).
 */
export function toV2HttpError(error: unknown): HttpError {
  if (error instanceof OAuthRequestError && error.error === 'rate_limit_exceeded') {
    const { 'retry-after': retryAfter = '1', ...headers } = error.headers;
    return rateLimitExceeded(error.message, Number(retryAfter), headers);
  }
  if (isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED) {
    return forwardedError(401, error.reason, 'UNAUTHENTICATED', error.message);
  }
  return toHttpError(error);
}
