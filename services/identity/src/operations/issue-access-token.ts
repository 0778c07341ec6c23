import { parseRole, parseScopes } from '../domain/roles.js';
import type { IdentityContext } from './context.js';
import { getTenant } from './get-tenant.js';

export interface AccessTokenRequest {
  readonly tenantId: string;
  /** Defaults to `operator:<tenantId>`. */
  readonly subject: string;
  /** Defaults to OWNER. */
  readonly role: string;
  readonly scopes: readonly string[];
}

/**
 * An access token for a tenant, signed with the current key (operator support and the demo
 * seed). It carries a fresh session id, so it can be revoked like any other.
 */
export async function issueAccessToken(
  ctx: Pick<IdentityContext, 'tenants' | 'keyRing' | 'newId' | 'now'>,
  request: AccessTokenRequest,
): Promise<{ accessToken: string; expiresIn: number }> {
  const tenant = await getTenant(ctx, request.tenantId);
  const now = ctx.now();
  const { token, expiresIn } = await ctx.keyRing.signer(now).sign(
    {
      subject: request.subject || `operator:${tenant.id}`,
      kind: 'user',
      tenantId: tenant.id,
      role: parseRole(request.role || 'OWNER'),
      scopes: parseScopes(request.scopes),
      sessionId: ctx.newId(),
    },
    now,
  );
  return { accessToken: token, expiresIn };
}
