import type { FastifyRequest } from 'fastify';
import { requestCookies, SESSION_COOKIE } from '../browser/session-cookies.js';

/**
 * Why a request's credentials are ambiguous, or `undefined` when they are not (issue #22):
 *
 * - more than one `Authorization` header. Node keeps only the first in `request.headers` (it
 *   discards duplicates of `authorization`), while a proxy in front may read the last: the two
 *   would see different callers. Counted on the raw header list, which keeps every one;
 * - a bearer token together with the `svc_session` cookie: two callers in one request, and no
 *   rule that says which one a reader downstream (a log, an audit, a proxy) believes.
 *
 * Either is refused with `400 invalid_request` before any credential is read.
 */
export function ambiguousCredentials(request: FastifyRequest): string | undefined {
  const raw = request.raw.rawHeaders;
  let authorizations = 0;
  let bearer = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'authorization') continue;
    authorizations += 1;
    if (/^bearer(\s|$)/i.test(raw[i + 1]?.trimStart() ?? '')) bearer = true;
  }
  if (authorizations > 1) return 'Send one Authorization header, not several';
  if (bearer && requestCookies(request).has(SESSION_COOKIE))
    return 'Send either a bearer token or the session cookie, not both';
  return undefined;
}
