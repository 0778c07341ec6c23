import { isHidden, type Route, type RouteOperation } from '../routes/define-route.js';
import { ALL_ROUTES } from '../routes/all-routes.js';
import type { ErrorStatus, ErrorStyle } from './error-responses.js';
import type { Tag } from './tags.js';

/**
 * Who may call an operation, as the document's `security`:
 * - `bearer`: an access token as `Authorization: Bearer` (a user's or an OAuth client's), or the
 *   browser's `svc_session` cookie, with `X-CSRF-Token` on state-changing methods;
 * - `public`: no credentials (the token endpoints take theirs in the body; /auth/v2 checks Origin).
 */
export type Access = 'bearer' | 'public';

/** What the document says about one route beyond its Fastify schema. */
export interface OperationDoc {
  readonly operationId: string;
  readonly tag: Tag;
  readonly summary: string;
  readonly access: Access;
  readonly style: ErrorStyle;
  readonly errors: readonly ErrorStatus[];
  /** Answers with no JSON schema in the route (204, 302, bodies Fastify does not serialise). */
  readonly extraResponses?: Readonly<Record<string, object>>;
}

/**
 * The statuses every route of a kind can answer, whatever its handler does:
 * - 400: ambiguous credentials are refused on every route of the scope, before anything else;
 * - 503: a draining process answers every request so, and so does a dependency away;
 * - a token route: 401 (no, a bad or a revoked token), 403 (role, users only, CSRF on a cookie
 *   session's write, or a client's tier without API access) and 429 (the tier's API quota);
 * - a method with a body: 413 over the body limit and 415 for a type it does not parse (the
 *   token endpoints answer the latter 400 invalid_request, RFC 6749).
 */
export function edgeErrors(route: Pick<Route, 'method' | 'access'>, style: ErrorStyle): ErrorStatus[] {
  const statuses: ErrorStatus[] = [400, 503];
  if (route.access.access === 'token') statuses.push(401, 403, 429);
  if (route.method !== 'GET') statuses.push(413);
  if (route.method !== 'GET' && style !== 'oauth') statuses.push(415);
  return statuses;
}

function operationDoc(route: Route, operation: RouteOperation): OperationDoc {
  const style = operation.errorStyle ?? 'api';
  const errors = new Set([...edgeErrors(route, style), ...(operation.errors ?? [])]);
  return {
    operationId: operation.operationId,
    tag: operation.tag,
    summary: operation.summary,
    access: route.access.access === 'token' ? 'bearer' : 'public',
    style,
    errors: [...errors].sort((a, b) => a - b),
    ...(operation.extraResponses ? { extraResponses: operation.extraResponses } : {}),
  };
}

/** The key of a route in OPERATIONS: its method and its path relative to /api/v1. */
export const operationKey = (method: string, path: string): string => `${method} ${path}`;

/**
 * Every documented route the gateway serves, keyed `METHOD /path` (relative to /api/v1), built
 * from the routes' own declarations (routes/all-routes.ts). A route registered without a
 * declaration fails the document's test: no endpoint is served undocumented.
 */
export const OPERATIONS: Readonly<Record<string, OperationDoc>> = Object.fromEntries(
  ALL_ROUTES.flatMap((route: Route) =>
    isHidden(route.operation) ? [] : [[route.key, operationDoc(route, route.operation)] as const],
  ),
);
