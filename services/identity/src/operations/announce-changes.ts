import { nameBasedId, type DomainEvent, type DomainEventType } from '@tap/contracts';
import type { KeyedLock } from '@tap/runtime';
import type { AnnouncementsRepository } from './ports/announcements-repository.js';
import type { DomainEventSink } from './ports/domain-events.js';

/** Documents one announcement pass looks at, at most. */
export const ANNOUNCEMENT_BATCH_SIZE = 100;

/** What the events of one document's state are, and what is recorded as announced after them. */
export interface Derived<Announced> {
  readonly events: readonly {
    readonly type: DomainEventType;
    readonly tenantId: string;
    readonly subject: Readonly<Record<string, string>>;
    readonly data: Readonly<Record<string, unknown>>;
  }[];
  readonly announced: Announced;
  /** The document goes once these are published (an OAuth client's announced deletion). */
  readonly remove: boolean;
}

export interface AnnouncerDeps<Announced, Current> {
  /** Names the events' ids (`tap/identity/<kind>`), fixed forever: changing it changes every id. */
  readonly kind: string;
  readonly repository: AnnouncementsRepository<Announced, Current>;
  readonly derive: (announced: Announced | null, current: Current) => Derived<Announced>;
  readonly sink: DomainEventSink;
  readonly locks: KeyedLock;
  readonly now: () => Date;
  readonly logger: {
    warn(object: object, message: string): void;
    error(object: object, message: string): void;
  };
}

/** What one pass did. */
export interface AnnouncementPassReport {
  readonly pending: number;
  readonly published: number;
  readonly failed: number;
}

export interface Announcer {
  /** Publishes what is still to be announced of document `id`; how many events. Rejects when the bus did. */
  announce(id: string): Promise<number>;
  /** The relay: every marked document, until the first failure (the bus is most likely down). */
  pass(): Promise<AnnouncementPassReport>;
}

/**
 * The announcer of one state-derived outbox. An event's id is derived from the document's id,
 * its version and the event type, so the write's own announcement and the relay (on any
 * replica) publish one change under one id; the mark is dropped only after the stream
 * confirmed every event of the version, so a change is never lost while the bus is down.
 */
export function createAnnouncer<Announced, Current>(deps: AnnouncerDeps<Announced, Current>): Announcer {
  const announce = (id: string) =>
    deps.locks.run(`announce:${deps.kind}:${id}`, async () => {
      const state = await deps.repository.state(id);
      if (state === undefined) return 0;
      const derived = deps.derive(state.announced, state.current);
      const occurredAt = deps.now().toISOString();
      for (const change of derived.events) {
        const event: DomainEvent = {
          id: nameBasedId(`tap/identity/${deps.kind}\n${id}\n${state.version}\n${change.type}`),
          type: change.type,
          tenantId: change.tenantId,
          occurredAt,
          subject: change.subject,
          data: change.data,
        };
        try {
          await deps.sink.publish(event);
        } catch (error) {
          if (!deps.sink.isRefused(error)) throw error;
          // The contract will never take it (a stored value it does not allow): said loudly,
          // and not retried forever in front of every later change.
          deps.logger.error(
            { err: error, eventId: event.id, type: event.type },
            'domain event refused by the contract',
          );
        }
      }
      await deps.repository.settle(id, state.version, derived.announced, { remove: derived.remove });
      return derived.events.length;
    });
  return {
    announce,
    async pass() {
      const ids = await deps.repository.pending(ANNOUNCEMENT_BATCH_SIZE);
      const report = { pending: ids.length, published: 0, failed: 0 };
      for (const id of ids) {
        try {
          report.published += await announce(id);
        } catch (error) {
          report.failed += 1;
          deps.logger.warn(
            { err: error, kind: deps.kind, id },
            'domain events left in the outbox; the relay tries again',
          );
          break;
        }
      }
      return report;
    },
  };
}
