import type {
  DeliveryAttempt__Output,
  WebhookDelivery__Output,
  WebhookEndpoint__Output,
} from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import type { FastifyInstance } from 'fastify';
import type { ServiceClients } from '../../clients.js';
import { managers } from '../auth/access.js';
import { callerOf } from '../auth/caller.js';
import { ok } from '../envelope.js';
import { wireJson } from '../wire-json.js';
import type { ErrorStatus } from '../openapi/error-responses.js';
import { noContent } from '../openapi/responses.js';
import { operation, registerRoutes, routesOf } from './define-route.js';
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

/**
 * Registration resolves the endpoint's host (the address guard): a resolver that is slow to say
 * "no such name" must come back as the service's 400, not as a gateway deadline's 503.
 */
const REGISTRATION_DEADLINE_MS = 12_000;

/** An endpoint, a delivery and an attempt are their wire messages; "none yet" is null, not '' or 0. */
const webhookJson = (w: WebhookEndpoint__Output): WebhookJson =>
  wireJson(w, [], ['disabledReason', 'failingSince']);
const deliveryJson = (d: WebhookDelivery__Output): DeliveryJson =>
  wireJson(d, [], ['nextAttemptAt', 'lastStatus', 'lastError']);
const attemptJson = (a: DeliveryAttempt__Output) => wireJson(a, [], ['status', 'error', 'nextAttemptAt']);

const WEBHOOKS = "where the tenant's events go and with which secret (issue 24: OWNER/ADMIN manage them)";
const manage = (more?: string) => managers(more ? `${WEBHOOKS}; ${more}` : WEBHOOKS);
const auth = (request: Parameters<typeof callerOf>[0]) => ({
  authorization: callerOf(request).authorization,
});
const route = routesOf<{ clients: ServiceClients }>();
/** Another tenant's endpoint or delivery, or none: 404 ENDPOINT_NOT_FOUND / DELIVERY_NOT_FOUND. */
const NOT_FOUND: readonly ErrorStatus[] = [404];

/**
 * `/tenant/webhooks…`: a tenant's webhook endpoints, their secrets (in the answers of create and
 * rotate only, marked no-store), test events, deliveries, attempts and replays. OWNER and ADMIN
 * only (the notifications service checks again); another tenant's endpoint or delivery is 404
 * NOT_FOUND there and changes nothing.
 */
export const WEBHOOK_ROUTES = [
  route('POST /tenant/webhooks', {
    schema: { body: CreateWebhookBody, response: createWebhookResponse },
    access: manage(),
    operation: operation(
      'notifications',
      'createWebhook',
      'Register a webhook endpoint; its `whsec_` secret is in this answer only (OWNER or ADMIN)',
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const { url, types, enabled } = request.body;
        const created = await unaryCall(
          clients.notifications,
          'CreateWebhookEndpoint',
          { url, types, ...(enabled === undefined ? {} : { enabled }) },
          { ...auth(request), deadlineMs: REGISTRATION_DEADLINE_MS },
        );
        void reply.header('cache-control', 'no-store');
        return reply
          .status(201)
          .send(ok({ webhook: webhookJson(created.endpoint!), secret: created.secret }));
      },
  }),
  route('GET /tenant/webhooks', {
    schema: { response: listWebhooksResponse },
    access: manage(),
    operation: operation(
      'notifications',
      'listWebhooks',
      "The tenant's webhook endpoints, never a secret (OWNER or ADMIN)",
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const listed = await unaryCall(clients.notifications, 'ListWebhookEndpoints', {}, auth(request));
        return ok({ webhooks: listed.endpoints.map(webhookJson) });
      },
  }),
  route('GET /tenant/webhooks/:id', {
    schema: { params: WebhookParams, response: webhookResponse },
    access: manage(),
    operation: operation('notifications', 'getWebhook', 'One webhook endpoint (OWNER or ADMIN)', NOT_FOUND),
    handler:
      ({ clients }) =>
      async (request) => {
        const ref = { endpointId: request.params.id };
        const endpoint = await unaryCall(clients.notifications, 'GetWebhookEndpoint', ref, auth(request));
        return ok({ webhook: webhookJson(endpoint) });
      },
  }),
  route('PATCH /tenant/webhooks/:id', {
    schema: { params: WebhookParams, body: UpdateWebhookBody, response: webhookResponse },
    access: manage(),
    operation: operation(
      'notifications',
      'updateWebhook',
      'Change the subscribed types and/or enable or disable an endpoint (OWNER or ADMIN)',
      NOT_FOUND,
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const { types, enabled } = request.body;
        const change = {
          endpointId: request.params.id,
          types: types ?? [],
          ...(enabled === undefined ? {} : { enabled }),
        };
        const updated = await unaryCall(
          clients.notifications,
          'UpdateWebhookEndpoint',
          change,
          auth(request),
        );
        return ok({ webhook: webhookJson(updated) });
      },
  }),
  route('DELETE /tenant/webhooks/:id', {
    schema: { params: WebhookParams },
    access: manage(),
    operation: {
      ...operation(
        'notifications',
        'deleteWebhook',
        'Delete an endpoint; its queued deliveries are dropped',
        NOT_FOUND,
      ),
      extraResponses: noContent('Deleted'),
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { endpointId: request.params.id };
        await unaryCall(clients.notifications, 'DeleteWebhookEndpoint', ref, auth(request));
        return reply.status(204).send();
      },
  }),
  route('POST /tenant/webhooks/:id/rotate-secret', {
    schema: { params: WebhookParams, response: rotateWebhookResponse },
    access: manage('the new secret is in the answer'),
    operation: operation(
      'notifications',
      'rotateWebhookSecret',
      'A new secret (shown once); the old one keeps signing beside it for 24 h',
      NOT_FOUND,
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { endpointId: request.params.id };
        const rotated = await unaryCall(clients.notifications, 'RotateWebhookSecret', ref, auth(request));
        void reply.header('cache-control', 'no-store');
        return ok({ secret: rotated.secret, previousSecretExpiresAt: rotated.previousExpiresAt });
      },
  }),
  route('POST /tenant/webhooks/:id/test', {
    schema: { params: WebhookParams, response: testWebhookResponse },
    access: manage('sends a signed request to its URL'),
    // 409 ENDPOINT_DISABLED.
    operation: operation(
      'notifications',
      'sendTestWebhook',
      'Queue a signed `webhook.test` event to this endpoint now; 409 ENDPOINT_DISABLED when disabled',
      [404, 409],
    ),
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { endpointId: request.params.id };
        const delivery = await unaryCall(clients.notifications, 'SendTestWebhook', ref, auth(request));
        return reply.status(202).send(ok({ delivery: deliveryJson(delivery) }));
      },
  }),
  route('GET /tenant/webhooks/:id/deliveries', {
    schema: { params: WebhookParams, querystring: DeliveriesQuery, response: listDeliveriesResponse },
    access: manage('the delivery log'),
    operation: operation(
      'notifications',
      'listWebhookDeliveries',
      "An endpoint's latest deliveries, newest first (OWNER or ADMIN)",
      NOT_FOUND,
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const ask = { endpointId: request.params.id, limit: Number(request.query.limit ?? 0) };
        const listed = await unaryCall(clients.notifications, 'ListWebhookDeliveries', ask, auth(request));
        return ok({ deliveries: listed.deliveries.map(deliveryJson) });
      },
  }),
  route('GET /tenant/webhooks/deliveries/:deliveryId/attempts', {
    schema: { params: DeliveryParams, response: listAttemptsResponse },
    access: manage('the delivery log'),
    operation: operation(
      'notifications',
      'listWebhookDeliveryAttempts',
      'Every attempt of a delivery: status, error, latency, next retry (OWNER or ADMIN)',
      NOT_FOUND,
    ),
    handler:
      ({ clients }) =>
      async (request) => {
        const ref = { deliveryId: request.params.deliveryId };
        const listed = await unaryCall(clients.notifications, 'ListDeliveryAttempts', ref, auth(request));
        return ok({ attempts: listed.attempts.map(attemptJson) });
      },
  }),
  route('POST /tenant/webhooks/deliveries/:deliveryId/replay', {
    schema: { params: DeliveryParams },
    access: manage('sends the event again'),
    operation: {
      ...operation(
        'notifications',
        'replayWebhookDelivery',
        'Send a delivery again now, same `webhook-id`',
        NOT_FOUND,
      ),
      extraResponses: { 202: { description: 'Queued', type: 'null' } },
    },
    handler:
      ({ clients }) =>
      async (request, reply) => {
        const ref = { deliveryId: request.params.deliveryId };
        await unaryCall(clients.notifications, 'ReplayWebhookDelivery', ref, auth(request));
        return reply.status(202).send();
      },
  }),
] as const;

/** Registers WEBHOOK_ROUTES: JSON bodies only. */
export async function webhookRoutes(app: FastifyInstance, deps: { clients: ServiceClients }): Promise<void> {
  app.removeContentTypeParser('text/plain');
  registerRoutes(app, WEBHOOK_ROUTES, deps);
}
