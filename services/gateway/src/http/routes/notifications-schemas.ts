import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { OUTBOUND_EVENT_TYPES } from '@tap/contracts';
import { Envelope, MapOf, Nullable } from '../typebox.js';

/*
 * Webhooks, the events feed and the audit log (docs/api.md, "Webhooks, events feed, audit log").
 * The schemas bound every input; the notifications service decides what a pattern cannot (a
 * reachable https URL, a cursor it issued, a range of at most 400 days) with its own codes.
 */

const Closed = <T extends TProperties>(properties: T) =>
  Type.Object(properties, { additionalProperties: false });

const EventType = Type.Unsafe<(typeof OUTBOUND_EVENT_TYPES)[number]>({
  type: 'string',
  enum: [...OUTBOUND_EVENT_TYPES],
  description: 'An outbound event type (docs/events.md, "Domain events")',
});
const EventTypes = Type.Array(EventType, {
  minItems: 1,
  maxItems: OUTBOUND_EVENT_TYPES.length,
  uniqueItems: true,
});
const Id = (description: string) => Type.String({ minLength: 1, maxLength: 64, description });
const Time = (description: string) => Type.String({ format: 'date-time', maxLength: 40, description });
const Cursor = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: '^[A-Za-z0-9_-]+$',
  description: 'An opaque cursor from a previous page',
});

export const CreateWebhookBody = Closed({
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description: 'An absolute https URL whose host resolves to a public address',
  }),
  types: EventTypes,
  enabled: Type.Optional(Type.Boolean({ description: 'Default true' })),
});

export const UpdateWebhookBody = Type.Object(
  { types: Type.Optional(EventTypes), enabled: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookParams = Closed({ id: Id('A webhook endpoint id') });
export const DeliveryParams = Closed({ deliveryId: Id('A delivery id') });

export const DeliveriesQuery = Closed({
  limit: Type.Optional(
    Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100 (default 100)' }),
  ),
});

const Webhook = Closed({
  id: Type.String(),
  url: Type.String(),
  types: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  disabledReason: Nullable(
    Type.String({ description: 'FAILING (disabled after failing for days) or BY_USER; null while enabled' }),
  ),
  failingSince: Nullable(Type.String({ description: 'The first failure with no success since' })),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});
export type WebhookJson = Static<typeof Webhook>;

const Delivery = Closed({
  id: Type.String(),
  endpointId: Type.String(),
  eventId: Type.String({ description: 'The `webhook-id` of every attempt' }),
  eventType: Type.String(),
  status: Type.String({ description: 'PENDING, DELIVERED or FAILED' }),
  attempts: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Nullable(Type.String({ description: 'null once delivered or failed' })),
  lastStatus: Nullable(Type.Integer({ description: 'null when the last attempt got no answer' })),
  lastError: Nullable(Type.String()),
  createdAt: Type.String(),
});
export type DeliveryJson = Static<typeof Delivery>;

const Attempt = Closed({
  attempt: Type.Integer({ minimum: 1 }),
  at: Type.String(),
  status: Nullable(Type.Integer({ description: 'null when the receiver did not answer' })),
  error: Nullable(Type.String({ description: 'A network error code (TIMEOUT, ECONNRESET, …)' })),
  latencyMs: Type.Integer({ minimum: 0 }),
  nextAttemptAt: Nullable(Type.String()),
});

const SECRET = 'The `whsec_` signing secret: shown in this answer only';

export const createWebhookResponse = {
  201: Envelope(Closed({ webhook: Webhook, secret: Type.String({ description: SECRET }) })),
};
export const webhookResponse = { 200: Envelope(Closed({ webhook: Webhook })) };
export const listWebhooksResponse = { 200: Envelope(Closed({ webhooks: Type.Array(Webhook) })) };
export const rotateWebhookResponse = {
  200: Envelope(
    Closed({
      secret: Type.String({ description: SECRET }),
      previousSecretExpiresAt: Type.String({ description: 'Until then the old secret signs beside the new' }),
    }),
  ),
};
export const testWebhookResponse = {
  202: Envelope(Closed({ delivery: Delivery })),
};
export const listDeliveriesResponse = { 200: Envelope(Closed({ deliveries: Type.Array(Delivery) })) };
export const listAttemptsResponse = { 200: Envelope(Closed({ attempts: Type.Array(Attempt) })) };

export const EventsQuery = Closed({
  after: Type.Optional(Cursor),
  types: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[a-z_.]+(,[a-z_.]+)*$',
      description: 'Comma-separated event types; all when absent',
    }),
  ),
  limit: Type.Optional(
    Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100 (default 100)' }),
  ),
});

/** The domain-event envelope, as a webhook carries it. */
const Event = Type.Object({
  id: Type.String(),
  type: Type.String(),
  tenantId: Type.String(),
  occurredAt: Type.String(),
  subject: MapOf(Type.String()),
  data: MapOf(Type.Unknown()),
});

export type EventJson = Static<typeof Event>;

export const eventsResponse = {
  200: {
    description:
      'JSON: the events after `after`, oldest first. With `Accept: text/event-stream`: a stream of ' +
      'messages (`id: <cursor>`, `data: <event JSON>`; resume with Last-Event-ID) and `: heartbeat` comments',
    content: {
      'application/json': {
        schema: Envelope(
          Closed({
            events: Type.Array(Event),
            nextCursor: Nullable(
              Type.String({ description: 'Pass as `after` for the next page; null before the first event' }),
            ),
          }),
        ),
      },
      'text/event-stream': { schema: Type.String({ description: 'Server-sent events' }) },
    },
  },
};

export const AuditQuery = Closed({
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-z0-9_.]+$' })),
  actorId: Type.Optional(Id('Only entries of this actor')),
  from: Type.Optional(Time('From this time (ISO 8601); default 400 days before `to`')),
  to: Type.Optional(Time('Until this time (ISO 8601); default now')),
  cursor: Type.Optional(Cursor),
  limit: Type.Optional(
    Type.String({ pattern: '^(100|[1-9][0-9]?)$', description: '1 to 100 (default 100)' }),
  ),
  format: Type.Optional(
    Type.Unsafe<'json' | 'csv'>({
      type: 'string',
      enum: ['json', 'csv'],
      description: 'csv: up to 10,000 entries as text/csv (so does Accept: text/csv)',
    }),
  ),
});
export type AuditQuery = Static<typeof AuditQuery>;

const AuditEntry = Closed({
  id: Type.String(),
  actor: Closed({
    type: Type.String({ description: 'user, client, operator or system' }),
    id: Nullable(Type.String()),
    email: Nullable(Type.String()),
  }),
  action: Type.String(),
  target: Nullable(Closed({ type: Type.String(), id: Nullable(Type.String()) })),
  outcome: Type.String({ description: 'SUCCESS or FAILURE' }),
  reason: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
  requestId: Nullable(Type.String()),
  /** What a change moved, as codes (a tier, a role); null when the entry is not a change of value. */
  change: Nullable(Closed({ from: Nullable(Type.String()), to: Type.String() })),
  occurredAt: Type.String(),
});
export type AuditEntryJson = Static<typeof AuditEntry>;

export const auditResponse = {
  200: {
    description: 'Newest first, in pages with a cursor; or the whole range as CSV',
    content: {
      'application/json': {
        schema: Envelope(
          Closed({
            entries: Type.Array(AuditEntry),
            nextCursor: Nullable(Type.String({ description: 'Pass as `cursor` for older entries' })),
          }),
        ),
      },
      'text/csv': {
        schema: Type.String({
          description: "RFC 4180 with a header row; a cell starting with = + - @ is prefixed with '",
        }),
      },
    },
  },
};
