import type { DomainEvent } from '@tap/contracts';

/** `audit.entry_recorded` events waiting for the bus (store/audit-outbox-repository.ts). */
export interface AuditOutboxRepository {
  ensureIndexes(): Promise<void>;
  add(event: DomainEvent, now: Date): Promise<void>;
  /** Oldest first. */
  pending(limit: number): Promise<DomainEvent[]>;
  remove(eventId: string): Promise<void>;
}
