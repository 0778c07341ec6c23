import type { WebhookEventType } from './types.js';

/**
 * Every outbound event type an endpoint may subscribe to, in words. A Record over the contract's
 * enum: when the contract gains a type, the console's type check fails here until it is named,
 * so the Webhooks page never offers fewer types than the API accepts.
 */
const LABELS: Readonly<Record<WebhookEventType, string>> = {
  'milestone.completed': 'A milestone is completed',
  'adoption.rung_changed': 'The maturity rung changes',
  'adoption.health_band_changed': 'The health band changes',
  'risk_signal.opened': 'A risk signal opens',
  'risk_signal.escalated': 'A risk signal escalates',
  'risk_signal.resolved': 'A risk signal is resolved',
  'usage.threshold_reached': 'Usage reaches 80% or 100% of a limit',
  'usage.threshold_cleared': 'Usage drops back under a threshold',
  'tier.changed': 'The subscription tier changes',
  'member.joined': 'A member joins',
  'member.role_changed': "A member's role changes",
  'member.deactivated': 'A member is deactivated',
  'member.reactivated': 'A member is reactivated',
  'oauth_client.created': 'An API client is created',
  'oauth_client.secret_rotated': "An API client's secret is rotated",
  'oauth_client.deleted': 'An API client is deleted',
};

export const EVENT_TYPES = Object.keys(LABELS) as WebhookEventType[];

export const eventTypeLabel = (type: string): string =>
  (LABELS as Readonly<Record<string, string>>)[type] ?? type;
