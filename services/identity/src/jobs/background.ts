import { startPeriodicJob } from '@tap/runtime';
import type { Logger } from '@tap/telemetry';
import { KEY_POLL_INTERVAL_MS, type KeyRing } from '../keys/key-ring.js';
import type { InvitationsRepository } from '../operations/ports/invitations-repository.js';
import type { MagicLinksRepository } from '../operations/ports/magic-links-repository.js';
import type { SessionsRepository } from '../operations/ports/sessions-repository.js';

/** How often expired sessions are deleted (FerretDB has no TTL indexes; expiry is ours). */
export const SESSION_SWEEP_INTERVAL_MS = 3_600_000;
/**
 * Expired sessions are kept this long past their last token's expiry before deletion, so a
 * late replay still meets its (revoked or expired) family rather than "unknown".
 */
export const SESSION_KEEP_AFTER_EXPIRY_MS = 24 * 3_600_000;
/**
 * How often expired magic links are deleted. An expired link is refused whether it is stored or
 * not (the same INVALID_OR_EXPIRED either way), so nothing is kept past expiry.
 */
export const MAGIC_LINK_SWEEP_INTERVAL_MS = 3_600_000;
/** How often stale seat intents are settled (and, until it once succeeds, seats migrated). */
export const SEAT_RECONCILIATION_INTERVAL_MS = 60_000;

/**
 * The service's periodic work: re-read which signing key signs (another replica may have
 * rotated it), sweep expired sessions and expired magic links, settle seat intents. Both are idempotent; a failure is logged and the next
 * tick tries again. Timers are unref'd and stop when `signal` aborts.
 */
export function startBackgroundJobs(options: {
  keyRing: KeyRing;
  sessions: SessionsRepository;
  magicLinks: MagicLinksRepository;
  /** One pass of the seat reconciliation (operations/reconcile-seats.ts). */
  reconcileSeats: () => Promise<unknown>;
  invitations: InvitationsRepository;
  /** One pass of the outbox relay (member.*, oauth_client.*, audit entries). */
  relayOutbox: () => Promise<unknown>;
  relayIntervalMs: number;
  now: () => Date;
  logger: Logger;
  signal: AbortSignal;
}): void {
  const { logger, now } = options;
  const every = (intervalMs: number, name: string, run: () => Promise<unknown>) => {
    const job = startPeriodicJob({ name, intervalMs, run, logger });
    options.signal.addEventListener('abort', () => void job.stop(), { once: true });
  };
  every(KEY_POLL_INTERVAL_MS, 'signing-key-poll', () => options.keyRing.refresh(now()));
  every(SESSION_SWEEP_INTERVAL_MS, 'session-sweep', () =>
    options.sessions.deleteExpired(new Date(now().getTime() - SESSION_KEEP_AFTER_EXPIRY_MS)),
  );
  every(MAGIC_LINK_SWEEP_INTERVAL_MS, 'magic-link-sweep', () => options.magicLinks.deleteExpired(now()));
  every(SEAT_RECONCILIATION_INTERVAL_MS, 'seat-reconciliation', options.reconcileSeats);
  // An expired invitation is refused whether stored or not, and listed nowhere: nothing is kept.
  every(MAGIC_LINK_SWEEP_INTERVAL_MS, 'invitation-sweep', () => options.invitations.deleteExpired(now()));
  every(options.relayIntervalMs, 'outbox-relay', options.relayOutbox);
}
