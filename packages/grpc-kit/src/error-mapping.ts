import { Metadata, status } from '@grpc/grpc-js';
import type { ErrorKind } from '@tap/errors';

/** Trailing-metadata keys that carry the machine-readable reason across the wire. */
export const ERROR_CODE_KEY = 'tap-error-code';
export const ERROR_DETAILS_KEY = 'tap-error-details';

/** Encoded details above this size are left out: trailers have a size limit, and callers do without them. */
export const MAX_ERROR_DETAILS_CHARS = 4_096;
/** Longer status messages are cut: the message crosses in a trailer too. */
export const MAX_STATUS_MESSAGE_CHARS = 1_024;
/** Sent instead of a code that is not UPPER_SNAKE (a bug of ours, not a reason to drop the answer). */
export const INVALID_ERROR_CODE = 'UNKNOWN_ERROR_CODE';

const ERROR_CODE = /^[A-Z][A-Z0-9_]{0,99}$/;
const NOT_PRINTABLE_ASCII = /[^\x20-\x7e]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

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

/**
 * Details as JSON with every character outside printable ASCII written as `\uXXXX`. gRPC
 * metadata text values may hold only printable ASCII (grpc-js's `Metadata.set` throws on
 * anything else), and details often echo what a caller sent: a non-ASCII `action` once ended
 * the entitlements process this way. `JSON.parse` on the other side gives back the same value.
 * Undefined when the details cannot be encoded (a cycle, a BigInt) or are too large.
 */
export function encodeErrorDetails(details: Readonly<Record<string, unknown>>): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(details);
  } catch {
    return undefined;
  }
  if (json === undefined) return undefined;
  const ascii = json.replace(
    NOT_PRINTABLE_ASCII,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return ascii.length <= MAX_ERROR_DETAILS_CHARS ? ascii : undefined;
}

/**
 * A status message grpc-js can send: it percent-encodes the message with `encodeURI`, which
 * throws on a lone surrogate, so those become U+FFFD; and it is bounded in length.
 */
export function safeStatusMessage(message: string): string {
  const bounded =
    message.length > MAX_STATUS_MESSAGE_CHARS ? `${message.slice(0, MAX_STATUS_MESSAGE_CHARS)}…` : message;
  return bounded.replace(LONE_SURROGATE, '\uFFFD');
}

/** Metadata for a domain error: its stable code and its caller-safe details. Never throws. */
export function errorMetadata(
  code: string,
  details: Readonly<Record<string, unknown>> | undefined,
): Metadata {
  const metadata = new Metadata();
  metadata.set(ERROR_CODE_KEY, ERROR_CODE.test(code) ? code : INVALID_ERROR_CODE);
  const encoded = details === undefined ? undefined : encodeErrorDetails(details);
  if (encoded !== undefined) metadata.set(ERROR_DETAILS_KEY, encoded);
  return metadata;
}
