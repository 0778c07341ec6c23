import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate, requireOperator } from '@tap/service-auth';
import type { TokenVerifier } from '@tap/tokens';
import { identityErrors } from '../domain/errors.js';
import { parseRole, parseScopes } from '../domain/roles.js';
import { newTenant, type Tenant } from '../domain/tenant.js';
import type { KeyRing } from '../keys/key-ring.js';
import type { TenantsRepository } from '../store/tenants-repository.js';

export interface IdentityHandlerDeps {
  readonly tenants: TenantsRepository;
  readonly keyRing: KeyRing;
  readonly verifier: TokenVerifier;
  readonly operatorToken: string;
  readonly logger: HandlerLogger;
  readonly now: () => Date;
  readonly newId: () => string;
}

const toWire = (tenant: Tenant) => ({
  id: tenant.id,
  name: tenant.name,
  slug: tenant.slug,
  createdAt: tenant.createdAt.toISOString(),
});

/** identity.v1 handlers: decode, call the domain, let unaryHandler map errors to status. */
export function identityHandlers(deps: IdentityHandlerDeps): IdentityServiceHandlers {
  const { logger } = deps;
  return {
    GetJwks: unaryHandler('IdentityService/GetJwks', logger, async () => {
      const keys = await deps.keyRing.jwks(deps.now());
      return { keys: keys.map((k) => ({ kid: k.kid ?? '', kty: k.kty ?? '', alg: k.alg ?? '', use: k.use ?? '', crv: k.crv ?? '', x: k.x ?? '', y: k.y ?? '' })) };
    }),

    GetTenant: unaryHandler('IdentityService/GetTenant', logger, async (_request, ctx) => {
      const claims = await authenticate(ctx.metadata, deps.verifier);
      const tenant = await deps.tenants.findById(claims.tenantId);
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
      return toWire(tenant);
    }),

    CreateTenant: unaryHandler('IdentityService/CreateTenant', logger, async (request, ctx) => {
      requireOperator(ctx.metadata, deps.operatorToken);
      const tenant = newTenant({ name: request.name, slug: request.slug }, deps.newId(), deps.now());
      await deps.tenants.insert(tenant);
      return toWire(tenant);
    }),

    FindTenantBySlug: unaryHandler('IdentityService/FindTenantBySlug', logger, async (request, ctx) => {
      requireOperator(ctx.metadata, deps.operatorToken);
      const tenant = await deps.tenants.findBySlug(request.slug.trim().toLowerCase());
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
      return toWire(tenant);
    }),

    IssueAccessToken: unaryHandler('IdentityService/IssueAccessToken', logger, async (request, ctx) => {
      requireOperator(ctx.metadata, deps.operatorToken);
      const tenant = await deps.tenants.findById(request.tenantId);
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
      const { token, expiresIn } = await deps.keyRing.signer().sign(
        {
          subject: request.subject || `operator:${tenant.id}`,
          kind: 'user',
          tenantId: tenant.id,
          role: parseRole(request.role || 'OWNER'),
          scopes: parseScopes(request.scopes),
          sessionId: deps.newId(),
        },
        deps.now(),
      );
      return { accessToken: token, expiresIn };
    }),
  };
}
