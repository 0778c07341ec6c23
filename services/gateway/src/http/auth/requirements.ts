import type { AccessClaims } from '@tap/tokens';
import { gatewayError } from '../errors/catalogue.js';
import { insufficientScope, type HttpError } from '../errors/http-error.js';

/**
 * What a route asks of a verified token, set as route `config: { auth: { ... } }` and checked by
 * the authenticate hook after the signature and revocation checks.
 */
export interface AuthRequirement {
  /** Only a signed-in user's token; an OAuth client's token is refused with 403 insufficient_scope. */
  readonly users?: boolean;
  /** Only users with one of these roles (implies `users`); other roles get 403 ROLE_FORBIDDEN. */
  readonly roles?: readonly string[];
  /** The token must carry this scope (clients by grant, users by role), else 403 insufficient_scope. */
  readonly scope?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthRequirement;
  }
}

/** The refusal for `claims` on a route with `requirement`, or undefined when they meet it. */
export function checkRequirement(
  claims: AccessClaims,
  requirement: AuthRequirement | undefined,
): HttpError | undefined {
  if (!requirement) return undefined;
  if ((requirement.users || requirement.roles) && claims.kind !== 'user') {
    return insufficientScope(requirement.scope ?? '', "This endpoint needs a signed-in user's token");
  }
  if (requirement.roles && !requirement.roles.includes(claims.role)) {
    return gatewayError('ROLE_FORBIDDEN', {
      message: `Only ${requirement.roles.join(' or ')} may do this`,
      details: { role: claims.role },
    });
  }
  if (requirement.scope && !claims.scopes.includes(requirement.scope))
    return insufficientScope(requirement.scope);
  return undefined;
}
