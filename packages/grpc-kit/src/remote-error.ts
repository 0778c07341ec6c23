import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { ERROR_CODE_KEY, ERROR_DETAILS_KEY } from './error-mapping.js';

/**
 * A failed call to another service, as the caller sees it: the gRPC status, the callee's stable
 * error code (when it sent one) and its caller-safe details. The gateway maps these to HTTP.
 */
export class RemoteCallError extends Error {
  override readonly name = 'RemoteCallError';
  readonly grpcStatus: status;
  readonly reason: string | undefined;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(error: ServiceError) {
    super(error.details || error.message, { cause: error });
    this.grpcStatus = error.code;
    const reason = error.metadata?.get(ERROR_CODE_KEY)[0];
    this.reason = typeof reason === 'string' ? reason : undefined;
    this.details = parseDetails(error.metadata?.get(ERROR_DETAILS_KEY)[0]);
  }
}

/** The callee's details: JSON, non-ASCII as `\uXXXX` escapes (see encodeErrorDetails); never throws. */
function parseDetails(raw: unknown): Readonly<Record<string, unknown>> | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A failure decided on the calling side, before anything was sent (e.g. a credential that cannot
 * travel as metadata), in the same shape as a callee's answer so callers handle one kind of error.
 */
export function localCallError(code: status, details: string): RemoteCallError {
  return new RemoteCallError(Object.assign(new Error(details), { code, details, metadata: new Metadata() }));
}

export function isRemoteCallError(value: unknown): value is RemoteCallError {
  return value instanceof RemoteCallError;
}

/**
 * Statuses of a call to another service that mean "too slow or not reachable right now": the
 * callee's own UNAVAILABLE and a deadline that passed before it answered.
 */
const UNAVAILABLE_STATUSES: ReadonlySet<status> = new Set([status.UNAVAILABLE, status.DEADLINE_EXCEEDED]);

/**
 * True for a failed call to another service that a handler should pass on as UNAVAILABLE (503 at
 * the gateway) rather than INTERNAL: an overloaded dependency is not a bug of ours. Any other
 * status left unhandled by a handler still is one, and stays INTERNAL.
 */
export function isRemoteUnavailable(value: unknown): boolean {
  return isRemoteCallError(value) && UNAVAILABLE_STATUSES.has(value.grpcStatus);
}
