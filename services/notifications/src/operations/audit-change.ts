import type { AuditEntry } from '../domain/index.js';
import type { AuditRepository } from './ports.js';

/** Who asked for a change made through this service (from the verified token). */
export type Actor = { readonly type: 'user' | 'client'; readonly id: string } | { readonly type: 'system' };

/** The request facts the gateway relays for the audit log (never a credential). */
export interface RequestFacts {
  readonly ip?: string;
  readonly userAgent?: string;
  readonly requestId?: string;
}

/** Appends the audit entry of a webhook endpoint change made through this service. */
export async function auditChange(
  deps: { readonly audit: AuditRepository; readonly now: () => Date; readonly newId: () => string },
  tenantId: string,
  actor: Actor,
  action: string,
  endpointId: string,
  facts: RequestFacts = {},
): Promise<void> {
  const entry: AuditEntry = {
    id: deps.newId(),
    tenantId,
    occurredAt: deps.now(),
    actor: { ...actor },
    action,
    target: { type: 'webhook_endpoint', id: endpointId },
    outcome: 'SUCCESS',
    ...facts,
  };
  await deps.audit.append(entry);
}
