import { GrpcStatus, isRemoteCallError } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import { generalError, type HttpError } from '../errors/http-error.js';
import { toHttpError } from '../errors/map-error.js';
import { OAuthRequestError } from '../errors/oauth-request-error.js';

/**
 * /auth/v2 answers in the general error shape `{ success: false, error: { code, message } }`
 * (the cookie surface is JSON for a first-party page, not an OAuth client). A failed sign-in or
 * refresh is 401 with identity's reason as the code; the auth limits keep the rate-limit shape.
 */
export function toV2HttpError(error: unknown): HttpError {
  if (error instanceof OAuthRequestError && error.status === 429) {
    const retryAfter = Number(error.headers?.['retry-after'] ?? '1');
    return {
      status: 429,
      body: { error: 'RATE_LIMIT_EXCEEDED', message: error.message, retryAfter },
      headers: { ...error.headers },
    };
  }
  if (isRemoteCallError(error) && error.grpcStatus === GrpcStatus.UNAUTHENTICATED) {
    return generalError(401, error.reason ?? 'UNAUTHENTICATED', error.message);
  }
  return toHttpError(error);
}

export function useV2Errors(app: FastifyInstance): void {
  app.setErrorHandler(async (error, request, reply) => {
    const mapped = toV2HttpError(error);
    if (mapped.status >= 500 && mapped.status !== 503) request.log.error({ err: error }, 'request failed');
    for (const [name, value] of Object.entries(mapped.headers ?? {})) void reply.header(name, value);
    return reply.status(mapped.status).send(mapped.body);
  });
}
