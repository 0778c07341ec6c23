import type { AuditEntryData, DomainEvent } from '@tap/contracts';
import type { AnnouncementPassReport } from './announce-changes.js';
import type { AuditOutboxRepository } from './ports/audit-outbox-repository.js';
import type { DomainEventSink } from './ports/domain-events.js';

/** Audit entries one relay pass publishes, at most. */
export const AUDIT_BATCH_SIZE = 100;

/** Where identity's operations record what the tenant's audit log shows (docs/identity.md, "Audit entries"). */
export interface AuditTrail {
  /**
   * Writes the entry to the outbox and publishes it off the caller's path; the relay publishes
   * what the bus did not confirm. Never rejects: an audit entry that cannot even be stored is
   * logged (ids and codes only) and does not fail what the user did.
   */
  record(tenantId: string, entry: AuditEntryData): Promise<void>;
  /** One relay pass, oldest first, until the first failure. */
  pass(): Promise<AnnouncementPassReport>;
}

export interface AuditTrailDeps {
  readonly outbox: AuditOutboxRepository;
  /** Absent: entries wait in the outbox (a test bed without the bus). */
  readonly sink: DomainEventSink | undefined;
  readonly now: () => Date;
  readonly newId: () => string;
  /** The gateway's id of the request being served (app.ts: grpc-kit's), when an entry names none. */
  readonly requestId?: () => string | undefined;
  readonly logger: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

/** Bounds what the gateway passed on (the contract's own limits), so an entry is never refused for length. */
const cut = (value: string | undefined, max: number) => (value ? value.slice(0, max) : undefined);

export function createAuditTrail(deps: AuditTrailDeps): AuditTrail {
  const publish = async (event: DomainEvent): Promise<void> => {
    if (!deps.sink) throw new Error('no event bus configured');
    try {
      await deps.sink.publish(event);
    } catch (error) {
      if (!deps.sink.isRefused(error)) throw error;
      deps.logger.error({ err: error, eventId: event.id }, 'audit entry refused by the contract; dropped');
    }
    await deps.outbox.remove(event.id);
  };
  return {
    async record(tenantId, entry) {
      const ip = cut(entry.ip, 45);
      const userAgent = cut(entry.userAgent, 512);
      const requestId = entry.requestId ?? deps.requestId?.();
      const data: AuditEntryData = {
        actor: entry.actor,
        action: entry.action,
        outcome: entry.outcome,
        ...(entry.target ? { target: entry.target } : {}),
        ...(entry.reason ? { reason: entry.reason } : {}),
        ...(ip ? { ip } : {}),
        ...(userAgent ? { userAgent } : {}),
        ...(requestId ? { requestId: cut(requestId, 128) } : {}),
        ...(entry.change ? { change: entry.change } : {}),
      };
      const event: DomainEvent = {
        id: deps.newId(),
        type: 'audit.entry_recorded',
        tenantId,
        occurredAt: deps.now().toISOString(),
        subject: {},
        data: { ...data },
      };
      try {
        await deps.outbox.add(event, deps.now());
      } catch (error) {
        deps.logger.error({ err: error, action: entry.action, tenantId }, 'audit entry not stored');
        return;
      }
      if (deps.sink) publish(event).catch(() => undefined);
    },
    async pass() {
      const events = await deps.outbox.pending(AUDIT_BATCH_SIZE);
      const report = { pending: events.length, published: 0, failed: 0 };
      if (!deps.sink) return report;
      for (const event of events) {
        try {
          await publish(event);
          report.published += 1;
        } catch (error) {
          report.failed += 1;
          deps.logger.warn(
            { err: error, eventId: event.id },
            'audit entries left in the outbox; the relay tries again',
          );
          break;
        }
      }
      return report;
    },
  };
}
