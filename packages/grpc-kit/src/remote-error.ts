import type { status, ServiceError } from '@grpc/grpc-js';
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

function parseDetails(raw: unknown): Readonly<Record<string, unknown>> | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function isRemoteCallError(value: unknown): value is RemoteCallError {
  return value instanceof RemoteCallError;
}
