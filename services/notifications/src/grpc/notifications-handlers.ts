import type { NotificationsServiceHandlers } from '@tap/contracts';
import { unaryHandler, type HandlerLogger } from '@tap/grpc-kit';
import { authenticate, requireUser } from '@tap/service-auth';
import type { AccessClaims, TokenVerifier } from '@tap/tokens';
import type { NotificationsApp } from '../app.js';
import type { Actor } from '../operations/audit-change.js';
import { attemptToWire, auditEntryToWire, deliveryToWire, endpointToWire, timeFromWire } from './wire.js';

/** Who manages webhooks and reads the audit log: signed-in OWNERs and ADMINs (the route table says the same). */
const MANAGER_ROLES = ['OWNER', 'ADMIN'] as const;

export interface NotificationsHandlerDeps {
  readonly ops: NotificationsApp['ops'];
  readonly verifier: TokenVerifier;
  readonly logger: HandlerLogger;
}

/**
 * notifications.v1 handlers: authenticate (the tenant always comes from the verified token),
 * check the role again (zero trust), call one operation, encode.
 */
export function notificationsHandlers(deps: NotificationsHandlerDeps): NotificationsServiceHandlers {
  const { ops, logger } = deps;
  const manager = async (metadata: Parameters<typeof authenticate>[0]) => {
    const claims = await authenticate(metadata, deps.verifier);
    requireUser(claims, MANAGER_ROLES);
    return { tenantId: claims.tenantId, actor: actorOf(claims) };
  };
  return {
    CreateWebhookEndpoint: unaryHandler(
      'NotificationsService/CreateWebhookEndpoint',
      logger,
      async (req, ctx) => {
        const { tenantId, actor } = await manager(ctx.metadata);
        const { endpoint, secret } = await ops.createEndpoint(
          {
            tenantId,
            url: req.url,
            types: req.types,
            ...(req.enabled === undefined ? {} : { enabled: req.enabled }),
          },
          actor,
        );
        return { endpoint: endpointToWire(endpoint), secret };
      },
    ),
    ListWebhookEndpoints: unaryHandler(
      'NotificationsService/ListWebhookEndpoints',
      logger,
      async (_req, ctx) => {
        const { tenantId } = await manager(ctx.metadata);
        return { endpoints: (await ops.listEndpoints(tenantId)).map(endpointToWire) };
      },
    ),
    UpdateWebhookEndpoint: unaryHandler(
      'NotificationsService/UpdateWebhookEndpoint',
      logger,
      async (req, ctx) => {
        const { tenantId, actor } = await manager(ctx.metadata);
        const change = { types: req.types, ...(req.enabled === undefined ? {} : { enabled: req.enabled }) };
        return endpointToWire(await ops.updateEndpoint(tenantId, req.endpointId, change, actor));
      },
    ),
    DeleteWebhookEndpoint: unaryHandler(
      'NotificationsService/DeleteWebhookEndpoint',
      logger,
      async (req, ctx) => {
        const { tenantId, actor } = await manager(ctx.metadata);
        await ops.deleteEndpoint(tenantId, req.endpointId, actor);
        return {};
      },
    ),
    RotateWebhookSecret: unaryHandler(
      'NotificationsService/RotateWebhookSecret',
      logger,
      async (req, ctx) => {
        const { tenantId, actor } = await manager(ctx.metadata);
        const { secret, previousExpiresAt } = await ops.rotateSecret(tenantId, req.endpointId, actor);
        return { secret, previousExpiresAt: previousExpiresAt.toISOString() };
      },
    ),
    ListWebhookDeliveries: unaryHandler(
      'NotificationsService/ListWebhookDeliveries',
      logger,
      async (req, ctx) => {
        const { tenantId } = await manager(ctx.metadata);
        return {
          deliveries: (await ops.listDeliveries(tenantId, req.endpointId, req.limit)).map(deliveryToWire),
        };
      },
    ),
    ListDeliveryAttempts: unaryHandler(
      'NotificationsService/ListDeliveryAttempts',
      logger,
      async (req, ctx) => {
        const { tenantId } = await manager(ctx.metadata);
        return { attempts: (await ops.listAttempts(tenantId, req.deliveryId)).map(attemptToWire) };
      },
    ),
    ReplayWebhookDelivery: unaryHandler(
      'NotificationsService/ReplayWebhookDelivery',
      logger,
      async (req, ctx) => {
        const { tenantId } = await manager(ctx.metadata);
        await ops.replay(tenantId, req.deliveryId);
        return {};
      },
    ),
    SendTestWebhook: unaryHandler('NotificationsService/SendTestWebhook', logger, async (req, ctx) => {
      const { tenantId } = await manager(ctx.metadata);
      return deliveryToWire(await ops.sendTest(tenantId, req.endpointId));
    }),
    GetWebhookEndpoint: unaryHandler('NotificationsService/GetWebhookEndpoint', logger, async (req, ctx) => {
      const { tenantId } = await manager(ctx.metadata);
      return endpointToWire(await ops.getEndpoint(tenantId, req.endpointId));
    }),
    ListEvents: unaryHandler('NotificationsService/ListEvents', logger, async (req, ctx) => {
      // Any token of the tenant: members watch their journey, integrators poll with client tokens.
      const claims = await authenticate(ctx.metadata, deps.verifier);
      const page = await ops.feed({
        tenantId: claims.tenantId,
        ...(req.after ? { after: req.after } : {}),
        types: req.types,
        ...(req.limit > 0 ? { limit: req.limit } : {}),
      });
      return {
        eventsJson: page.events.map((e) => JSON.stringify(e)),
        nextCursor: page.nextCursor ?? '',
        cursors: [...page.cursors],
      };
    }),
    ListAuditEntries: unaryHandler('NotificationsService/ListAuditEntries', logger, async (req, ctx) => {
      const { tenantId } = await manager(ctx.metadata);
      const page = await ops.audit({
        tenantId,
        ...auditFilter(req),
        ...(req.cursor ? { cursor: req.cursor } : {}),
        ...(req.limit > 0 ? { limit: req.limit } : {}),
      });
      return { entries: page.entries.map(auditEntryToWire), nextCursor: page.nextCursor ?? '' };
    }),
    ExportAuditEntries: unaryHandler('NotificationsService/ExportAuditEntries', logger, async (req, ctx) => {
      const { tenantId } = await manager(ctx.metadata);
      return { csv: await ops.auditCsv({ tenantId, ...auditFilter(req) }) };
    }),
  };
}

function actorOf(claims: AccessClaims): Actor {
  return { type: claims.kind === 'user' ? 'user' : 'client', id: claims.subject };
}

function auditFilter(req: { action: string; actorId: string; from: string; to: string }) {
  const from = timeFromWire(req.from);
  const to = timeFromWire(req.to);
  return {
    ...(req.action ? { action: req.action } : {}),
    ...(req.actorId ? { actorId: req.actorId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };
}
