import type { CallContext } from '@tap/grpc-kit';
import { authenticate, requireOperator, requireUser } from '@tap/service-auth';
import type { AccessClaims, TokenVerifier } from '@tap/tokens';
import { identityErrors } from '../domain/errors.js';
import { MANAGER_ROLES } from '../domain/roles.js';
import { OPERATOR_ACTOR, userActor, type AuditActor } from '../operations/audit-actor.js';
import type { IdentityContext } from '../operations/context.js';

/** Who is calling: the operator CLI, or the holder of a verified access token. */
export type Caller =
  { readonly kind: 'operator' } | { readonly kind: 'token'; readonly claims: AccessClaims };

/** What it takes to recognise a caller. */
export interface CallerAuth {
  readonly verifier: TokenVerifier;
  /** OPERATOR_TOKEN and, while it is being rotated, OPERATOR_TOKEN_PREVIOUS. */
  readonly operatorTokens: readonly string[];
}

const OPERATOR_SCHEME = 'Operator ';

/** The operator (its credential checked) or the verified holder of a token; throws otherwise. */
export async function resolveCaller(metadata: CallContext['metadata'], auth: CallerAuth): Promise<Caller> {
  const header = metadata.get('authorization')[0];
  if (typeof header === 'string' && header.startsWith(OPERATOR_SCHEME)) {
    requireOperator(metadata, auth.operatorTokens);
    return { kind: 'operator' };
  }
  return { kind: 'token', claims: await authenticate(metadata, auth.verifier) };
}

/**
 * The tenant whose OAuth clients or join requests a call manages. The operator names it; a
 * token's tenant is always the token's own, and only a signed-in OWNER or ADMIN may manage them.
 * Never an OAuth client's own token, not even for its own secret: rotating would hand it every
 * scope of the client and lock the real integration out.
 */
export function managedTenant(caller: Caller, requestedTenantId: string): string {
  if (caller.kind === 'operator') {
    if (!requestedTenantId) throw identityErrors.create('TENANT_ID_REQUIRED');
    return requestedTenantId;
  }
  requireUser(caller.claims, MANAGER_ROLES);
  return caller.claims.tenantId;
}

/** Who the audit log names for a change made by `caller`: the operator, or the signed-in user. */
export function auditActorOf(ctx: IdentityContext, caller: Caller): Promise<AuditActor> {
  return caller.kind === 'operator'
    ? Promise.resolve(OPERATOR_ACTOR)
    : userActor(ctx, caller.claims.tenantId, caller.claims.subject);
}
