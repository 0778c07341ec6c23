import type { ProductEventKind } from './product-event.js';

/** The subject prefix of the contract; tests use their own prefix so streams do not overlap. */
export const DEFAULT_EVENT_SUBJECT_PREFIX = 'events';

/** `events.<tenantId>.<kind>`: the subject a tenant's event of `kind` is published on. */
export function eventSubject(
  tenantId: string,
  kind: ProductEventKind,
  prefix = DEFAULT_EVENT_SUBJECT_PREFIX,
): string {
  return `${prefix}.${tenantId}.${kind}`;
}

/** The wildcard that captures every tenant's events (the stream's subject). */
export function allEventsSubject(prefix = DEFAULT_EVENT_SUBJECT_PREFIX): string {
  return `${prefix}.>`;
}

/** The subject prefix of the domain (outbound) events; tests use their own. */
export const DEFAULT_DOMAIN_SUBJECT_PREFIX = 'domain';

/** The stream that captures `domain.>` (docs/events.md, "Domain events"). */
export const DEFAULT_DOMAIN_STREAM = 'DOMAIN_EVENTS';

/** `domain.<tenantId>.<type>`: the subject a tenant's domain event of `type` is published on. */
export function domainEventSubject(
  tenantId: string,
  type: string,
  prefix = DEFAULT_DOMAIN_SUBJECT_PREFIX,
): string {
  return `${prefix}.${tenantId}.${type}`;
}
