import type { FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from '../errors/catalogue.js';
import { sendHttpError } from '../errors/send-http-error.js';

/**
 * The Origin/Referer allowlist of /auth/v2 (spec "Cookie sessions" 3). An `Origin` must be on
 * the list; without one, a `Referer`'s origin must be. A request with neither is let through:
 * browsers send `Origin` on every cross-site POST (and on same-origin POSTs too, in every
 * browser we support), so its absence means a non-browser client, which cannot be a CSRF
 * victim; cookie-authenticated changes still need the CSRF header (docs/browser-sessions.md).
 */
export function originAllowed(request: FastifyRequest, allowlist: ReadonlySet<string>): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined) return allowlist.has(origin);
  const referer = request.headers.referer;
  if (referer === undefined) return true;
  try {
    return allowlist.has(new URL(referer).origin);
  } catch {
    return false;
  }
}

/** Normalises configured origins (`https://app.example.com`, no path or trailing slash). */
export function originSet(origins: readonly string[]): ReadonlySet<string> {
  return new Set(origins.map((value) => new URL(value).origin));
}

/** An onRequest hook refusing requests from origins not on the list with 403 ORIGIN_NOT_ALLOWED. */
export function enforceOriginAllowlist(allowlist: ReadonlySet<string>) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (originAllowed(request, allowlist)) return undefined;
    return sendHttpError(reply, gatewayError('ORIGIN_NOT_ALLOWED'));
  };
}
