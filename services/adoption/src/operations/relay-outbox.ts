import type { DuePublication, OutboxRepository, PublishDomainEvent } from '../ports.js';
import { publishCompletion, type PublishEvent } from './completion-outbox.js';
import { publishOutbound } from './event-outbox.js';

/** Reminders one pass looks at, at most; the rest wait for the next tick, oldest first. */
export const OUTBOX_BATCH_SIZE = 100;
/** How long a replica's claim keeps other replicas off a completion (far above one publish, 5 s). */
export const OUTBOX_LEASE_MS = 60_000;
/**
 * A reminder whose completion is not in the aggregate this long after it was written belongs to
 * a write that lost its race or died: no completing write takes anywhere near this long.
 */
export const UNWRITTEN_REMINDER_TTL_MS = 10 * 60_000;
/** An event the contract refuses is tried again this much later (after a fix), never dropped. */
export const REFUSED_EVENT_RETRY_MS = 60 * 60_000;

export interface OutboxRelayLogger {
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

export interface OutboxRelayDeps {
  readonly outbox: OutboxRepository;
  readonly publish: PublishEvent;
  /** Publishes outbound events on the domain stream. */
  readonly publishDomain: PublishDomainEvent;
  readonly now: () => Date;
  readonly graceMs: number;
  readonly logger: OutboxRelayLogger;
  /** True when a publish failed because the event contract refuses the event (it never will pass). */
  readonly isRefused: (error: unknown) => boolean;
  /** Defaults to OUTBOX_LEASE_MS. */
  readonly leaseMs?: number;
}

/** What one pass did. */
export interface OutboxPassReport {
  /** Reminders that were due. */
  readonly due: number;
  /** Of those, the ones this replica claimed. */
  readonly claimed: number;
  /** Events this replica published (each one left the outbox afterwards). */
  readonly published: number;
  /** Reminders dropped: published already, or their completion was never written. */
  readonly settled: number;
  /** Reminders whose completion is not written yet (looked at again later). */
  readonly waiting: number;
  /** Events the contract refused (logged, tried again after REFUSED_EVENT_RETRY_MS). */
  readonly refused: number;
  /** Publishes or store calls that failed; the pass stops at the first one. */
  readonly failed: number;
}

type Outcome = 'published' | 'settled' | 'waiting' | 'refused';

async function relay(deps: OutboxRelayDeps, due: DuePublication, now: Date): Promise<Outcome> {
  const entry = await deps.outbox.entry(due.tenantId, due.completionId, due.holder);
  if (entry.state === 'published') {
    await deps.outbox.forget(due.tenantId, due.completionId);
    return 'settled';
  }
  if (entry.state === 'unwritten') {
    if (now.getTime() - due.createdAt.getTime() >= UNWRITTEN_REMINDER_TTL_MS) {
      await deps.outbox.forget(due.tenantId, due.completionId);
      return 'settled';
    }
    await deps.outbox.postpone(due, new Date(now.getTime() + deps.graceMs));
    return 'waiting';
  }
  try {
    if (entry.state === 'pending-event') await publishOutbound(deps, due.tenantId, entry.event, due.holder);
    else await publishCompletion(deps, due.tenantId, entry.completion);
    return 'published';
  } catch (error) {
    if (!deps.isRefused(error)) throw error;
    deps.logger.error(
      { err: error, tenantId: due.tenantId, eventId: due.completionId },
      'event refused by the event contract; kept in the outbox',
    );
    await deps.outbox.postpone(due, new Date(now.getTime() + REFUSED_EVENT_RETRY_MS));
    return 'refused';
  }
}

/**
 * One relay pass: every completion (or outbound event) whose reminder is due (its grace period is over and the
 * completing call has not taken it out of the outbox) is claimed (an insert, so replicas running
 * at once split the work instead of both publishing), and its event published with the envelope
 * the completing call sent. The pass stops at the first failure: the stream or the store is most
 * likely down, and the next pass starts again from the oldest.
 */
export async function runOutboxPass(deps: OutboxRelayDeps): Promise<OutboxPassReport> {
  const leaseMs = deps.leaseMs ?? OUTBOX_LEASE_MS;
  const due = await deps.outbox.due(deps.now(), OUTBOX_BATCH_SIZE);
  const report = { due: due.length, claimed: 0, published: 0, settled: 0, waiting: 0, refused: 0, failed: 0 };
  for (const item of due) {
    const now = deps.now();
    let claim: string | null = null;
    try {
      claim = await deps.outbox.claim(item, now, leaseMs);
      if (claim === null) continue;
      report.claimed += 1;
      report[await relay(deps, item, now)] += 1;
    } catch (error) {
      report.failed += 1;
      deps.logger.warn(
        { err: error, tenantId: item.tenantId, eventId: item.completionId },
        'event still in the outbox; the next pass tries again',
      );
      break;
    } finally {
      if (claim !== null) {
        await deps.outbox
          .release(claim)
          .catch((error: unknown) => deps.logger.warn({ err: error, claim }, 'outbox claim not released'));
      }
    }
  }
  return report;
}
