/**
 * The outbound catalogue: every domain-event type. proto/tap/events/v1/domain-event.schema.json
 * is the contract; a test keeps this list equal to the schema's enum.
 */
export const DOMAIN_EVENT_TYPES = [
  'milestone.completed',
  'adoption.rung_changed',
  'adoption.health_band_changed',
  'risk_signal.opened',
  'risk_signal.escalated',
  'risk_signal.resolved',
  'usage.threshold_reached',
  'usage.threshold_cleared',
  'tier.changed',
  'member.joined',
  'member.deactivated',
  'member.role_changed',
  'member.reactivated',
  'oauth_client.created',
  'oauth_client.secret_rotated',
  'oauth_client.deleted',
  'audit.entry_recorded',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

/**
 * The types an integrator can subscribe a webhook to and read in the events feed. The audit
 * entry is the audit log's own input, read through the audit-log route only.
 */
export const OUTBOUND_EVENT_TYPES = DOMAIN_EVENT_TYPES.filter(
  (type): type is Exclude<DomainEventType, 'audit.entry_recorded'> => type !== 'audit.entry_recorded',
);

export type OutboundEventType = (typeof OUTBOUND_EVENT_TYPES)[number];

/** The envelope, the same as a product event's. */
export interface DomainEvent<T extends DomainEventType = DomainEventType> {
  /** UUID; also the JetStream message id, so an outbox relay's retry is stored once. */
  readonly id: string;
  readonly type: T;
  readonly tenantId: string;
  /** ISO 8601 timestamp of when it happened at the producer. */
  readonly occurredAt: string;
  /** References to the subjects of the event, e.g. `{ clientId }`. */
  readonly subject: Readonly<Record<string, string>>;
  readonly data: Readonly<Record<string, unknown>>;
}

/** What `audit.entry_recorded` carries in `data` (the schema closes it: nothing else fits). */
export interface AuditEntryData {
  readonly actor: {
    readonly type: 'user' | 'client' | 'operator' | 'system';
    readonly id?: string;
    readonly email?: string;
  };
  /** Dotted, lower case: `oauth_client.created`, `session.sign_in`. */
  readonly action: string;
  readonly target?: { readonly type: string; readonly id?: string };
  readonly outcome: 'SUCCESS' | 'FAILURE';
  /** A stable code for a failure (`INVALID_CREDENTIALS`), never free text. */
  readonly reason?: string;
  readonly ip?: string;
  readonly userAgent?: string;
  readonly requestId?: string;
  /** What a change moved, as codes (`CORE` → `ENTERPRISE`, `MEMBER` → `ADMIN`); `from` absent for a first value. */
  readonly change?: { readonly from?: string; readonly to: string };
}

export function isDomainEventType(value: string): value is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(value);
}

export function isOutboundEventType(value: string): value is OutboundEventType {
  return (OUTBOUND_EVENT_TYPES as readonly string[]).includes(value);
}
