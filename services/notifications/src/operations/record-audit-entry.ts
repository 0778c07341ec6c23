import type { AuditEntryData, DomainEvent } from '@tap/contracts';
import type { AuditRepository } from './ports.js';

/**
 * Appends an `audit.entry_recorded` event to its tenant's log, once per event id. The contract
 * closes the event's data to the listed fields, so nothing else (no secret) is stored.
 */
export async function recordAuditEntry(
  deps: { readonly audit: AuditRepository },
  event: DomainEvent,
): Promise<boolean> {
  const data = event.data as unknown as AuditEntryData;
  return deps.audit.append({
    id: event.id,
    tenantId: event.tenantId,
    occurredAt: new Date(event.occurredAt),
    actor: { ...data.actor },
    action: data.action,
    ...(data.target ? { target: { ...data.target } } : {}),
    outcome: data.outcome,
    ...(data.reason ? { reason: data.reason } : {}),
    ...(data.ip ? { ip: data.ip } : {}),
    ...(data.userAgent ? { userAgent: data.userAgent } : {}),
    ...(data.requestId ? { requestId: data.requestId } : {}),
    ...(data.change ? { change: { ...data.change } } : {}),
  });
}
