import type { CallContext } from '@tap/grpc-kit';
import { authenticate, authErrors, requireOperator } from '@tap/service-auth';
import type { AccessClaims, TokenVerifier } from '@tap/tokens';
import { identityErrors } from '../domain/errors.js';
import { MANAGER_ROLES } from '../domain/roles.js';

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
 * The tenant whose OAuth clients a call manages. The operator names it; a token's tenant is
 * always the token's own, and only an OWNER or ADMIN (or, where `selfClientId` is given, that
 * very client) may manage clients.
 */
export function managedTenant(caller: Caller, requestedTenantId: string, selfClientId?: string): string {
  if (caller.kind === 'operator') {
    if (!requestedTenantId) throw identityErrors.create('TENANT_ID_REQUIRED');
    return requestedTenantId;
  }
  const { claims } = caller;
  const isManager = claims.kind === 'user' && (MANAGER_ROLES as readonly string[]).includes(claims.role);
  const isSelf = selfClientId !== undefined && claims.kind === 'client' && claims.subject === selfClientId;
  if (!isManager && !isSelf)
    throw authErrors.create('ROLE_FORBIDDEN', { details: { role: claims.role || claims.kind } });
  return claims.tenantId;
}
