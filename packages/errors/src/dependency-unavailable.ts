/**
 * Errors of our infrastructure clients that mean "not reachable right now" rather than a bug:
 * the caller gets UNAVAILABLE (and retries) instead of INTERNAL. Matched by name so this package
 * needs none of the drivers.
 */
const UNAVAILABLE_ERROR_NAMES = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  // The client closed under an operation in flight (a process stopping while a call is still in
  // its handler); which of the two depends on where the operation was. We use no explicit
  // sessions, so an expired one only ever comes from a closed client.
  'MongoClientClosedError',
  'MongoExpiredSessionError',
  // A pool cleared after a network error, a checkout that waited too long, an operation past its
  // timeoutMS: an overloaded or unreachable server, not a bug.
  'MongoPoolClearedError',
  'MongoWaitQueueTimeoutError',
  'MongoOperationTimeoutError',
  'DependencyUnavailableError',
]);

const UNAVAILABLE_MESSAGES = [/Connection is closed/, /Stream isn't writeable/, /Command timed out/];

export function isDependencyUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (UNAVAILABLE_ERROR_NAMES.has(error.name) || UNAVAILABLE_ERROR_NAMES.has(error.constructor.name))
    return true;
  return UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(error.message));
}

/** Thrown by our own code when a dependency it needs is not connected yet. */
export class DependencyUnavailableError extends Error {
  override readonly name = 'DependencyUnavailableError';
}
