import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import { authenticate, requireOperator } from '@tap/service-auth';
import { parseRole } from '../domain/roles.js';
import { createTenant } from '../operations/create-tenant.js';
import { createTenantWithOwner } from '../operations/create-tenant-with-owner.js';
import { createUser } from '../operations/create-user.js';
import { findTenantBySlug } from '../operations/find-tenant-by-slug.js';
import { getJwks } from '../operations/get-jwks.js';
import { getTenant } from '../operations/get-tenant.js';
import { issueAccessToken } from '../operations/issue-access-token.js';
import { rotateSigningKey } from '../operations/rotate-signing-key.js';
import { setUserPassword } from '../operations/set-user-password.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { jwkToWire, rotationToWire, tenantToWire, userToWire } from './wire.js';

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

/**
 * Keys, tenants and users: the JWKS for everyone, the rest for the operator (and GetTenant for a
 * token). Each RPC checks its caller, decodes, calls the operation of the same name, encodes.
 */
export function tenantHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, TenantRpcs> {
  const { ctx, logger } = deps;
  const operatorOnly = (metadata: Parameters<typeof requireOperator>[0]) =>
    requireOperator(metadata, deps.operatorTokens);
  return {
    GetJwks: unaryHandler('IdentityService/GetJwks', logger, async () => ({
      keys: (await getJwks(ctx)).map(jwkToWire),
    })),

    GetTenant: unaryHandler('IdentityService/GetTenant', logger, async (_request, call) => {
      const claims = await authenticate(call.metadata, deps.verifier);
      return tenantToWire(await getTenant(ctx, claims.tenantId));
    }),

    CreateTenant: unaryHandler('IdentityService/CreateTenant', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return tenantToWire(await createTenant(ctx, { name: request.name, slug: request.slug }));
    }),

    FindTenantBySlug: unaryHandler('IdentityService/FindTenantBySlug', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return tenantToWire(await findTenantBySlug(ctx, request.slug));
    }),

    IssueAccessToken: unaryHandler('IdentityService/IssueAccessToken', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return issueAccessToken(ctx, {
        tenantId: request.tenantId,
        subject: request.subject,
        role: request.role,
        scopes: request.scopes,
      });
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
      const role = parseRole(request.role || 'MEMBER');
      return userToWire(await createUser(ctx, request.tenantId, newUserInput(request.user), role));
    }),

    SetUserPassword: unaryHandler('IdentityService/SetUserPassword', logger, async (request, call) => {
      operatorOnly(call.metadata);
      return userToWire(await setUserPassword(ctx, request.email, request.password));
    }),

    RotateSigningKey: unaryHandler('IdentityService/RotateSigningKey', logger, async (request, call) => {
      operatorOnly(call.metadata);
      const rotated = await rotateSigningKey(
        ctx,
        { retirePreviousNow: request.retirePreviousNow, retentionMs: deps.keyRetentionMs },
        logger,
      );
      return rotationToWire(rotated);
    }),
  };
}
