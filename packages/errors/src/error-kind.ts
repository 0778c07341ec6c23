/**
 * Transport-neutral categories of expected failure. The domain says *what kind* of failure
 * happened; the gRPC edge maps a kind to a status code and the gateway maps that to HTTP.
 */
export const ERROR_KINDS = [
  'INVALID_ARGUMENT',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'CONFLICT',
  'FAILED_PRECONDITION',
  'PERMISSION_DENIED',
  'UNAUTHENTICATED',
  'RESOURCE_EXHAUSTED',
  'UNAVAILABLE',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];
