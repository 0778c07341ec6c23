import { GrpcStatus, isDependencyUnavailable, isRemoteCallError, type RemoteCallError } from '@tap/grpc-kit';
import type { FastifyError } from 'fastify';
import { forwardedError, gatewayError, oauthError, type OAuthErrorCode } from './catalogue.js';
import { insufficientScope, invalidToken, type HttpError } from './http-error.js';
import { OAuthRequestError } from './oauth-request-error.js';

/**
 * Where the spec asks for a status other than the one a reason's kind implies. Everything
 * else follows STATUS_BY_GRPC.
 */
const STATUS_BY_REASON: Readonly<Record<string, number>> = {
  MILESTONE_DEPENDENCIES_UNMET: 403,
  // Like unmet dependencies: a step this tenant's path does not allow, not a state conflict.
  MILESTONE_NOT_APPLICABLE: 403,
  // The same kind of refusal: this milestone is not one a person may complete by hand. The key
  // is a real one, so the request itself is well formed (the OpenAPI document calls it valid).
  MILESTONE_NOT_MANUAL: 403,
  // Like completing an unknown milestone (404 MILESTONE_NOT_FOUND): the plan names milestones
  // that do not exist on this tenant's journey, which no schema can know of.
  PLAN_UNKNOWN_MILESTONES: 404,
};

const STATUS_BY_GRPC: Partial<Record<GrpcStatus, number>> = {
  [GrpcStatus.INVALID_ARGUMENT]: 400,
  [GrpcStatus.OUT_OF_RANGE]: 400,
  [GrpcStatus.NOT_FOUND]: 404,
  [GrpcStatus.ALREADY_EXISTS]: 409,
  [GrpcStatus.ABORTED]: 409,
  [GrpcStatus.FAILED_PRECONDITION]: 409,
  [GrpcStatus.PERMISSION_DENIED]: 403,
  [GrpcStatus.RESOURCE_EXHAUSTED]: 429,
  [GrpcStatus.UNAVAILABLE]: 503,
  [GrpcStatus.DEADLINE_EXCEEDED]: 503,
};

/** The one mapping from anything thrown while handling a request to the spec's HTTP error. */
export function toHttpError(error: unknown): HttpError {
  if (isRemoteCallError(error)) return fromRemote(error);
  // The gateway's own dependencies (Redis for the revocation list): unavailable, not a bug.
  if (isDependencyUnavailable(error)) return gatewayError('SERVICE_UNAVAILABLE');
  const fastifyError = error as Partial<FastifyError>;
  if (fastifyError.validation) {
    const details = fastifyError.validation.map((v) => ({
      path: v.instancePath || v.params?.['missingProperty'] || '/',
      message: v.message,
    }));
    return gatewayError('VALIDATION_FAILED', { details });
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return gatewayError('UNSUPPORTED_MEDIA_TYPE');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return gatewayError('BODY_TOO_LARGE');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return gatewayError('INVALID_JSON', { message: 'The JSON body is empty' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return gatewayError('INVALID_REQUEST', { message: 'Content-Length does not match the body' });
    // The router's own refusals (Fastify's frameworkErrors): a path that does not decode, and a
    // path parameter longer than any id we issue (maxParamLength), which Fastify answers 414.
    case 'FST_ERR_BAD_URL':
      return gatewayError('INVALID_URL');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return gatewayError('PATH_PARAMETER_TOO_LONG');
    default:
      break;
  }
  if (error instanceof SyntaxError || fastifyError.statusCode === 400) {
    return gatewayError('INVALID_JSON');
  }
  if (
    typeof fastifyError.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return gatewayError('INVALID_REQUEST', { status: fastifyError.statusCode });
  }
  return gatewayError('INTERNAL');
}

function fromRemote(error: RemoteCallError): HttpError {
  if (error.grpcStatus === GrpcStatus.UNAUTHENTICATED)
    return invalidToken('The access token is expired, malformed or revoked');
  if (error.reason === 'SCOPE_MISSING') {
    const scope = error.details?.['scope'];
    return insufficientScope(typeof scope === 'string' ? scope : '');
  }
  if (error.reason === 'INVALID_HISTORY_QUERY') return historyQueryFailed(error);
  const status = (error.reason && STATUS_BY_REASON[error.reason]) || STATUS_BY_GRPC[error.grpcStatus];
  if (!status) return gatewayError('INTERNAL');
  if (status === 503) return gatewayError('SERVICE_UNAVAILABLE');
  return forwardedError(status, error.reason, 'ERROR', error.message, error.details);
}

/**
 * Entitlements' check of a usage history question (a real day, from ≤ to, within the 13 months
 * kept) finishes the query's schema check, so it answers as the schema does.
 */
function historyQueryFailed(error: RemoteCallError): HttpError {
  const field = error.details?.['field'];
  const path = typeof field === 'string' ? `/${field}` : '/';
  return gatewayError('VALIDATION_FAILED', { details: [{ path, message: error.message }] });
}

/** Identity's reasons on the public token endpoints, as the spec's OAuth-style errors. */
const OAUTH_BY_REASON: Readonly<Record<string, OAuthErrorCode>> = {
  // Login: unknown email, wrong password and inactive account are one answer (no enumeration).
  INVALID_CREDENTIALS: 'invalid_client',
  CLIENT_AUTH_FAILED: 'invalid_client',
  REFRESH_TOKEN_INVALID: 'invalid_token',
  SCOPE_NOT_GRANTED: 'invalid_scope',
};

/**
 * The mapping for the public token endpoints (`/oauth/token`, `/auth/login`, `/auth/refresh`,
 * `/auth/logout`): the spec's OAuth-style body `{ error, error_description }` for everything.
 * Every malformed request (missing field, wrong content type, bad JSON or form) is
 * `400 invalid_request`, as the spec's authentication error table has it.
 */
export function toOAuthHttpError(error: unknown): HttpError {
  if (error instanceof OAuthRequestError)
    return oauthError(error.error, error.message, { headers: { ...error.headers } });
  if (isRemoteCallError(error)) {
    const mapped = error.reason ? OAUTH_BY_REASON[error.reason] : undefined;
    if (mapped) return oauthError(mapped, error.message);
    if (error.grpcStatus === GrpcStatus.INVALID_ARGUMENT) return oauthError('invalid_request', error.message);
  }
  if ((error as Partial<FastifyError>).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return oauthError('invalid_request', 'This endpoint does not accept that Content-Type');
  }
  const general = toHttpError(error);
  if (general.status === 401 || general.status === 403) return general;
  if (general.status === 503) return oauthError('temporarily_unavailable');
  if (general.status >= 500) return oauthError('server_error');
  const body = general.body as { error: { message?: string; details?: unknown } };
  const details = Array.isArray(body.error.details)
    ? (body.error.details as { path: string; message?: string }[])
    : [];
  const description =
    details.length > 0
      ? details.map((d) => `${d.path} ${d.message ?? ''}`.trim()).join('; ')
      : (body.error.message ?? 'The request is malformed');
  // RFC 6749 names no status for an oversized body: 413 says what happened, any other problem is 400.
  return oauthError('invalid_request', description, { status: general.status === 413 ? 413 : 400 });
}
