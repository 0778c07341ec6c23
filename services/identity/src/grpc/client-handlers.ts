import type { IdentityServiceHandlers } from '@tap/contracts';
import { unaryHandler } from '@tap/grpc-kit';
import type { ClientWithSecret } from '../operations/client-secrets.js';
import { createOAuthClient } from '../operations/create-oauth-client.js';
import { deleteOAuthClient } from '../operations/delete-oauth-client.js';
import { listOAuthClients } from '../operations/list-oauth-clients.js';
import { rotateOAuthClientSecret } from '../operations/rotate-oauth-client-secret.js';
import { auditActorOf as actorOf, managedTenant, resolveCaller } from './caller.js';
import type { IdentityHandlerDeps } from './handler-deps.js';
import { clientToWire } from './wire.js';

type ClientRpcs = 'CreateOAuthClient' | 'ListOAuthClients' | 'DeleteOAuthClient' | 'RotateOAuthClientSecret';

const withSecret = (created: ClientWithSecret) => ({
  client: clientToWire(created.client),
  clientSecret: created.clientSecret,
});

/** OAuth client management for a tenant's OWNER or ADMIN, and for the operator CLI. */
export function clientHandlers(deps: IdentityHandlerDeps): Pick<IdentityServiceHandlers, ClientRpcs> {
  const { ctx, logger } = deps;
  return {
    CreateOAuthClient: unaryHandler('IdentityService/CreateOAuthClient', logger, async (request, call) => {
      const caller = await resolveCaller(call.metadata, deps);
      const tenantId = managedTenant(caller, request.tenantId);
      return withSecret(
        await createOAuthClient(
          ctx,
          tenantId,
          { name: request.name, scopes: request.scopes },
          await actorOf(ctx, caller),
        ),
      );
    }),

    ListOAuthClients: unaryHandler('IdentityService/ListOAuthClients', logger, async (request, call) => {
      const tenantId = managedTenant(await resolveCaller(call.metadata, deps), request.tenantId);
      return { clients: (await listOAuthClients(ctx, tenantId)).map(clientToWire) };
    }),

    DeleteOAuthClient: unaryHandler('IdentityService/DeleteOAuthClient', logger, async (request, call) => {
      const caller = await resolveCaller(call.metadata, deps);
      const tenantId = managedTenant(caller, request.tenantId);
      await deleteOAuthClient(ctx, tenantId, request.clientId, await actorOf(ctx, caller));
      return {};
    }),

    // An OWNER's or ADMIN's act, never the client's own token (docs/security.md, endpoint table).
    RotateOAuthClientSecret: unaryHandler(
      'IdentityService/RotateOAuthClientSecret',
      logger,
      async (request, call) => {
        const caller = await resolveCaller(call.metadata, deps);
        const tenantId = managedTenant(caller, request.tenantId);
        return withSecret(
          await rotateOAuthClientSecret(ctx, tenantId, request.clientId, await actorOf(ctx, caller)),
        );
      },
    ),
  };
}
