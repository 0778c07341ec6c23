import type {
  WireAuditEntry,
  WireDeliveryAttempt,
  WireWebhookDelivery,
  WireWebhookEndpoint,
} from '@tap/contracts';
import type { AuditEntry } from '../domain/index.js';
import type { Delivery, DeliveryAttempt, WebhookEndpoint } from '../operations/ports.js';

const iso = (date: Date | null | undefined): string => (date ? date.toISOString() : '');

/** An endpoint as the wire shows it: never a secret, sealed or not. */
export function endpointToWire(e: WebhookEndpoint): WireWebhookEndpoint {
  return {
    id: e.id,
    url: e.url,
    types: [...e.types],
    enabled: e.enabled,
    disabledReason: e.disabledReason ?? '',
    failingSince: iso(e.failingSince),
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
  };
}

export function deliveryToWire(d: Delivery): WireWebhookDelivery {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'PENDING' ? iso(d.nextAttemptAt) : '',
    lastStatus: d.lastStatus ?? 0,
    lastError: d.lastError ?? '',
    createdAt: iso(d.createdAt),
  };
}

export function attemptToWire(a: DeliveryAttempt): WireDeliveryAttempt {
  return {
    attempt: a.attempt,
    at: iso(a.at),
    status: a.status ?? 0,
    error: a.error ?? '',
    latencyMs: a.latencyMs,
    nextAttemptAt: iso(a.nextAttemptAt),
  };
}

export function auditEntryToWire(e: AuditEntry): WireAuditEntry {
  return {
    id: e.id,
    actor: { type: e.actor.type, id: e.actor.id ?? '', email: e.actor.email ?? '' },
    action: e.action,
    target: { type: e.target?.type ?? '', id: e.target?.id ?? '' },
    outcome: e.outcome,
    reason: e.reason ?? '',
    ip: e.ip ?? '',
    userAgent: e.userAgent ?? '',
    requestId: e.requestId ?? '',
    ...(e.change ? { change: { from: e.change.from ?? '', to: e.change.to } } : {}),
    occurredAt: iso(e.occurredAt),
  };
}

/** An ISO 8601 time from the wire; empty is "not given", anything unparseable is an invalid Date. */
export function timeFromWire(value: string): Date | undefined {
  return value === '' ? undefined : new Date(value);
}
