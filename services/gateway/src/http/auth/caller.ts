import type { AccessClaims } from '@tap/tokens';
import type { FastifyRequest } from 'fastify';

/** Who made a request, as the authentication hook verified it. */
export interface Caller {
  readonly claims: AccessClaims;
  /** `Bearer <token>`, forwarded unchanged: every service verifies the token again (zero trust). */
  readonly authorization: string;
}

/**
 * A handler asked for the caller on a route the route table left public: a bug in the gateway
 * (the route needs a `token` entry), answered 500 INTERNAL rather than served anonymously.
 */
export class CallerMissingError extends Error {
  override readonly name = 'CallerMissingError';
  readonly code = 'CALLER_NOT_AUTHENTICATED';
  constructor(route: string) {
    super(`${route} asked for its caller, but the route table does not authenticate it`);
  }
}

// Kept off the request object so that only the authentication hook can set it: no route can
// write or forget to check a `request.auth` of its own.
const callers = new WeakMap<FastifyRequest, Caller>();

/** Records the verified caller of `request` (the authentication hook alone calls this). */
export function rememberCaller(request: FastifyRequest, caller: Caller): void {
  callers.set(request, caller);
}

/** The authenticated caller of a `token` route; throws {@link CallerMissingError} on any other. */
export function callerOf(request: FastifyRequest): Caller {
  const caller = callers.get(request);
  if (!caller) throw new CallerMissingError(`${request.method} ${request.routeOptions.url ?? request.url}`);
  return caller;
}

/** The caller when the request was authenticated, else undefined (hooks that run on every route). */
export function callerIfAuthenticated(request: FastifyRequest): Caller | undefined {
  return callers.get(request);
}

/** The call settings that forward the caller's token to a service (every service verifies it again). */
export function forwardedAuth(request: FastifyRequest): { authorization: string } {
  return { authorization: callerOf(request).authorization };
}
