export type {
  NotificationsServiceClient,
  NotificationsServiceHandlers,
  NotificationsServiceDefinition,
} from './generated/tap/notifications/v1/NotificationsService.js';
export type { WebhookEndpoint as WireWebhookEndpoint } from './generated/tap/notifications/v1/WebhookEndpoint.js';
export type { WebhookDelivery as WireWebhookDelivery } from './generated/tap/notifications/v1/WebhookDelivery.js';
export type { DeliveryAttempt as WireDeliveryAttempt } from './generated/tap/notifications/v1/DeliveryAttempt.js';
export type { AuditEntry as WireAuditEntry } from './generated/tap/notifications/v1/AuditEntry.js';
// What the gateway's client decodes (proto3 defaults filled in).
export type { WebhookEndpoint__Output } from './generated/tap/notifications/v1/WebhookEndpoint.js';
export type { WebhookDelivery__Output } from './generated/tap/notifications/v1/WebhookDelivery.js';
export type { DeliveryAttempt__Output } from './generated/tap/notifications/v1/DeliveryAttempt.js';
export type { AuditEntry__Output } from './generated/tap/notifications/v1/AuditEntry.js';
export type { EventPage__Output } from './generated/tap/notifications/v1/EventPage.js';
