import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  DeliveryAttempt__Output,
  WebhookDelivery__Output,
  WebhookEndpoint__Output,
} from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import {
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  UpdateWebhookBody,
  WebhookParams,
  createWebhookResponse,
  listAttemptsResponse,
  listDeliveriesResponse,
  listWebhooksResponse,
  rotateWebhookResponse,
  testWebhookResponse,
  webhookResponse,
  type DeliveryJson,
  type WebhookJson,
} from './notifications-schemas.js';

const orNull = (value: string): string | null => value || null;

/**
 * Registration resolves the endpoint's host (the address guard): a resolver that is slow to say
 * "no such name" must come back as the service's 400, not as a gateway deadline's 503.
 */
const REGISTRATION_DEADLINE_MS = 12_000;

const webhookJson = (w: WebhookEndpoint__Output): WebhookJson => ({
  id: w.id,
  url: w.url,
  types: w.types,
  enabled: w.enabled,
  disabledReason: orNull(w.disabledReason),
  failingSince: orNull(w.failingSince),
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

const deliveryJson = (d: WebhookDelivery__Output): DeliveryJson => ({
  id: d.id,
  endpointId: d.endpointId,
  eventId: d.eventId,
  eventType: d.eventType,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: orNull(d.nextAttemptAt),
  lastStatus: d.lastStatus || null,
  lastError: orNull(d.lastError),
  createdAt: d.createdAt,
});

const attemptJson = (a: DeliveryAttempt__Output) => ({
  attempt: a.attempt,
  at: a.at,
  status: a.status || null,
  error: orNull(a.error),
  latencyMs: a.latencyMs,
  nextAttemptAt: orNull(a.nextAttemptAt),
});

/**
 * `/tenant/webhooks…`: a tenant's webhook endpoints, their secrets (in the answers of create and
 * rotate only, marked no-store), test events, deliveries, attempts and replays. OWNER and ADMIN
 * only (the route table; the notifications service checks again); another tenant's endpoint or
 * delivery is 404 NOT_FOUND there and changes nothing.
 */
export async function webhookRoutes(
  instance: FastifyInstance,
  options: { clients: ServiceClients },
): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { notifications } = options.clients;
  app.removeContentTypeParser('text/plain');
  const auth = (request: Parameters<typeof callerOf>[0]) => ({
    authorization: callerOf(request).authorization,
  });

  app.post(
    '/tenant/webhooks',
    { schema: { body: CreateWebhookBody, response: createWebhookResponse } },
    async (request, reply) => {
      const { url, types, enabled } = request.body;
      const created = await unaryCall(
        notifications,
        'CreateWebhookEndpoint',
        { url, types, ...(enabled === undefined ? {} : { enabled }) },
        { ...auth(request), deadlineMs: REGISTRATION_DEADLINE_MS },
      );
      void reply.header('cache-control', 'no-store');
      return reply.status(201).send(ok({ webhook: webhookJson(created.endpoint!), secret: created.secret }));
    },
  );

  app.get('/tenant/webhooks', { schema: { response: listWebhooksResponse } }, async (request) => {
    const listed = await unaryCall(notifications, 'ListWebhookEndpoints', {}, auth(request));
    return ok({ webhooks: listed.endpoints.map(webhookJson) });
  });

  app.get(
    '/tenant/webhooks/:id',
    { schema: { params: WebhookParams, response: webhookResponse } },
    async (request) => {
      const ref = { endpointId: request.params.id };
      return ok({
        webhook: webhookJson(await unaryCall(notifications, 'GetWebhookEndpoint', ref, auth(request))),
      });
    },
  );

  app.patch(
    '/tenant/webhooks/:id',
    { schema: { params: WebhookParams, body: UpdateWebhookBody, response: webhookResponse } },
    async (request) => {
      const { types, enabled } = request.body;
      const change = {
        endpointId: request.params.id,
        types: types ?? [],
        ...(enabled === undefined ? {} : { enabled }),
      };
      const updated = await unaryCall(notifications, 'UpdateWebhookEndpoint', change, auth(request));
      return ok({ webhook: webhookJson(updated) });
    },
  );

  app.delete('/tenant/webhooks/:id', { schema: { params: WebhookParams } }, async (request, reply) => {
    await unaryCall(notifications, 'DeleteWebhookEndpoint', { endpointId: request.params.id }, auth(request));
    return reply.status(204).send();
  });

  app.post(
    '/tenant/webhooks/:id/rotate-secret',
    { schema: { params: WebhookParams, response: rotateWebhookResponse } },
    async (request, reply) => {
      const ref = { endpointId: request.params.id };
      const rotated = await unaryCall(notifications, 'RotateWebhookSecret', ref, auth(request));
      void reply.header('cache-control', 'no-store');
      return ok({ secret: rotated.secret, previousSecretExpiresAt: rotated.previousExpiresAt });
    },
  );

  app.post(
    '/tenant/webhooks/:id/test',
    { schema: { params: WebhookParams, response: testWebhookResponse } },
    async (request, reply) => {
      const ref = { endpointId: request.params.id };
      const delivery = await unaryCall(notifications, 'SendTestWebhook', ref, auth(request));
      return reply.status(202).send(ok({ delivery: deliveryJson(delivery) }));
    },
  );

  app.get(
    '/tenant/webhooks/:id/deliveries',
    { schema: { params: WebhookParams, querystring: DeliveriesQuery, response: listDeliveriesResponse } },
    async (request) => {
      const ask = { endpointId: request.params.id, limit: Number(request.query.limit ?? 0) };
      const listed = await unaryCall(notifications, 'ListWebhookDeliveries', ask, auth(request));
      return ok({ deliveries: listed.deliveries.map(deliveryJson) });
    },
  );

  app.get(
    '/tenant/webhooks/deliveries/:deliveryId/attempts',
    { schema: { params: DeliveryParams, response: listAttemptsResponse } },
    async (request) => {
      const ref = { deliveryId: request.params.deliveryId };
      const listed = await unaryCall(notifications, 'ListDeliveryAttempts', ref, auth(request));
      return ok({ attempts: listed.attempts.map(attemptJson) });
    },
  );

  app.post(
    '/tenant/webhooks/deliveries/:deliveryId/replay',
    { schema: { params: DeliveryParams } },
    async (request, reply) => {
      const ref = { deliveryId: request.params.deliveryId };
      await unaryCall(notifications, 'ReplayWebhookDelivery', ref, auth(request));
      return reply.status(202).send();
    },
  );
}
