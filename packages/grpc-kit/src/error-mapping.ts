import { Metadata, status } from '@grpc/grpc-js';
import type { ErrorKind } from '@tap/errors';

/** Trailing-metadata keys that carry the machine-readable reason across the wire. */
export const ERROR_CODE_KEY = 'tap-error-code';
export const ERROR_DETAILS_KEY = 'tap-error-details';

/** The one table from a domain error kind to a gRPC status code. */
export const STATUS_BY_KIND: Readonly<Record<ErrorKind, status>> = {
  INVALID_ARGUMENT: status.INVALID_ARGUMENT,
  NOT_FOUND: status.NOT_FOUND,
  ALREADY_EXISTS: status.ALREADY_EXISTS,
  CONFLICT: status.ABORTED,
  FAILED_PRECONDITION: status.FAILED_PRECONDITION,
  PERMISSION_DENIED: status.PERMISSION_DENIED,
  UNAUTHENTICATED: status.UNAUTHENTICATED,
  RESOURCE_EXHAUSTED: status.RESOURCE_EXHAUSTED,
  UNAVAILABLE: status.UNAVAILABLE,
};

/** Metadata for a domain error: its stable code and its caller-safe details. */
export function errorMetadata(
  code: string,
  details: Readonly<Record<string, unknown>> | undefined,
): Metadata {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_KEY, code);
  if (details) metadata.set(ERROR_DETAILS_KEY, asciiJson(details));
  return metadata;
}

/**
 * JSON with every character outside printable ASCII written as a `\uXXXX` escape. grpc-js
 * throws on any other character in a metadata value, and details echo caller input (an unknown
 * action like "«"): unescaped, one request's text crashed the service. JSON.parse undoes it.
 */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[^\x20-\x7e]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
