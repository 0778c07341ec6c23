export type {
  NotificationsServiceClient,
  NotificationsServiceHandlers,
  NotificationsServiceDefinition,
} from './generated/tap/notifications/v1/NotificationsService.js';
export type { WebhookEndpoint as WireWebhookEndpoint } from './generated/tap/notifications/v1/WebhookEndpoint.js';
export type { WebhookDelivery as WireWebhookDelivery } from './generated/tap/notifications/v1/WebhookDelivery.js';
export type { DeliveryAttempt as WireDeliveryAttempt } from './generated/tap/notifications/v1/DeliveryAttempt.js';
export type { AuditEntry as WireAuditEntry } from './generated/tap/notifications/v1/AuditEntry.js';
