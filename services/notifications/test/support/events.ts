import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '@tap/contracts';

/** A domain event of `tenantId` with a fresh id, as a producer publishes it (occurred now, unless told). */
export function domainEvent(
  tenantId: string,
  type: DomainEvent['type'],
  subject: Record<string, string>,
  data: object,
  occurredAt = new Date(),
): DomainEvent {
  return {
    id: randomUUID(),
    type,
    tenantId,
    occurredAt: occurredAt.toISOString(),
    subject,
    data: { ...data },
  };
}
