import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { authenticate, requireOperator } from '@tap/service-auth';
import { identityErrors } from '../domain/errors.js';
import { parseRole, parseScopes } from '../domain/roles.js';
import { newTenant } from '../domain/tenant.js';
import { createTenantWithOwner, createUser, setUserPassword } from '../operations/users.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { tenantToWire, userToWire } from './wire.js';

type TenantRpcs =
  | 'GetJwks'
  | 'GetTenant'
  | 'CreateTenant'
  | 'FindTenantBySlug'
  | 'IssueAccessToken'
  | 'CreateTenantWithOwner'
  | 'CreateUser'
  | 'SetUserPassword'
  | 'RotateSigningKey';

const newUserInput = (
  user: { email: string; firstName: string; lastName: string; password: string } | null,
) => ({
  email: user?.email ?? '',
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
  password: user?.password ?? '',
});

/** Keys, tenants and users: the JWKS for everyone, the rest for the operator (and GetTenant for a token). */
export function tenantHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, TenantRpcs> {
  const { ctx, logger } = deps;
  const operatorOnly = (metadata: Parameters<typeof requireOperator>[0]) =>
    requireOperator(metadata, deps.operatorTokens);
  return {
    GetJwks: unaryHandler('IdentityService/GetJwks', logger, async () => {
      const keys = await ctx.keyRing.jwks(ctx.now());
      return {
        keys: keys.map((k) => ({
          kid: k.kid ?? '',
          kty: k.kty ?? '',
          alg: k.alg ?? '',
          use: k.use ?? '',
          crv: k.crv ?? '',
          x: k.x ?? '',
          y: k.y ?? '',
        })),
      };
    }),

    GetTenant: unaryHandler('IdentityService/GetTenant', logger, async (_request, call) => {
      const claims = await authenticate(call.metadata, deps.verifier);
      const tenant = await ctx.tenants.findById(claims.tenantId);
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
      return tenantToWire(tenant);
    }),

    CreateTenant: unaryHandler('IdentityService/CreateTenant', logger, async (request, call) => {
      operatorOnly(call.metadata);
      const tenant = newTenant({ name: request.name, slug: request.slug }, ctx.newId(), ctx.now());
      await ctx.tenants.insert(tenant);
      return tenantToWire(tenant);
    }),

    FindTenantBySlug: unaryHandler('IdentityService/FindTenantBySlug', logger, async (request, call) => {
      operatorOnly(call.metadata);
      const tenant = await ctx.tenants.findBySlug(request.slug.trim().toLowerCase());
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
      return tenantToWire(tenant);
    }),

    IssueAccessToken: unaryHandler('IdentityService/IssueAccessToken', logger, async (request, call) => {
      operatorOnly(call.metadata);
      const tenant = await ctx.tenants.findById(request.tenantId);
      if (!tenant) throw identityErrors.create('TENANT_NOT_FOUND');
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
    }),

    CreateTenantWithOwner: unaryHandler(
      'IdentityService/CreateTenantWithOwner',
      logger,
      async (request, call) => {
        operatorOnly(call.metadata);
        const { tenant, owner } = await createTenantWithOwner(ctx, {
          name: request.name,
          slug: request.slug,
          owner: newUserInput(request.owner),
        });
        return { tenant: tenantToWire(tenant), owner: userToWire(owner) };
      },
    ),

    CreateUser: unaryHandler('IdentityService/CreateUser', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return userToWire(
        await createUser(
          ctx,
          request.tenantId,
          newUserInput(request.user),
          parseRole(request.role || 'MEMBER'),
        ),
      );
    }),

    SetUserPassword: unaryHandler('IdentityService/SetUserPassword', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return userToWire(await setUserPassword(ctx, request.email, request.password));
    }),

    RotateSigningKey: unaryHandler('IdentityService/RotateSigningKey', logger, async (request, call) => {
      operatorOnly(call.metadata);
      const rotated = request.retirePreviousNow
        ? await ctx.keyRing.rotateRetiringNow(ctx.now())
        : await ctx.keyRing.rotate(ctx.now(), deps.keyRetentionMs);
      if (request.retirePreviousNow)
        logger.warn(
          { kid: rotated.kid, retiredKids: rotated.retiredKids },
          'emergency signing-key rotation: earlier keys retired at once',
        );
      return {
        kid: rotated.kid,
        activatesAt: rotated.activatesAt.toISOString(),
        previousKid: rotated.previousKid,
        previousRetiresAt: rotated.previousRetiresAt.toISOString(),
      };
    }),
  };
}
