import { setTimeout as sleep } from 'node:timers/promises';
import type { ConsumerLease } from '../../lease/consumer-lease.js';
import type { ConsumerErrorReport } from '../types.js';

// How often the orphan gate looks at the consumer again.
const GATE_POLL_MS = 250;
// The server moves an expired message to its redelivery queue on a timer; give it this long.
const GATE_MARGIN_MS = 1_000;

export interface OwnershipOptions {
  readonly lease: ConsumerLease | undefined;
  readonly renewMs: number;
  readonly ackWaitMs: number;
  /** Messages the server holds as delivered and not acked (num_ack_pending). */
  readonly ackPending: () => Promise<number>;
  readonly onError: (error: unknown, report: ConsumerErrorReport) => void;
}

/** One stretch of ownership: `signal` aborts when it ends (stop, or the lease was lost). */
export interface OwnershipTerm {
  readonly signal: AbortSignal;
  end(): void;
}

export interface Ownership {
  /** Resolves once this instance may pull; undefined when `stop` aborted first. */
  acquire(stop: AbortSignal): Promise<OwnershipTerm | undefined>;
  owning(): boolean;
  release(): Promise<void>;
}

/**
 * Who may pull. With a lease: only its holder, for as long as renewals keep it valid; a holder
 * that cannot renew (Redis down, lost to another) ends its term a renewal interval before the
 * lease could expire. Without one: this instance, always (run one replica).
 *
 * The orphan gate: a previous owner that died (or lost the lease mid-batch) may hold delivered,
 * unacked messages. The server redelivers them only after their ack wait, and would meanwhile
 * hand newer messages of the same tenant to us: applied first, they would move the store's
 * lastSeq past the orphans, which would then be skipped. So a new owner that cannot tell the
 * hand-over was clean waits until nothing is pending or one ack wait has passed; the server
 * then offers the expired orphans before anything new (its redelivery queue comes first).
 */
export function createOwnership(options: OwnershipOptions): Ownership {
  const { lease } = options;
  let validUntil = 0;
  let ownedWithoutLease = false;

  const claim = async (): Promise<'self' | 'released' | 'unknown' | undefined> => {
    if (!lease) return 'unknown';
    const sentAt = Date.now();
    try {
      const answer = await lease.claim();
      validUntil = answer.held ? sentAt + lease.ttlMs : 0;
      return answer.held ? answer.previous : undefined;
    } catch (error) {
      report(options, error, true);
      return undefined;
    }
  };

  // Keeps renewing while it waits: false when the lease went to someone else meanwhile.
  const gate = async (stop: AbortSignal): Promise<boolean> => {
    const deadline = Date.now() + options.ackWaitMs + GATE_MARGIN_MS;
    let renewedAt = Date.now();
    while (!stop.aborted && Date.now() < deadline) {
      const pending = await options.ackPending().catch((error: unknown) => {
        report(options, error, true);
        return 1;
      });
      if (pending === 0) return true;
      await sleep(GATE_POLL_MS, undefined, { signal: stop }).catch(() => undefined);
      if (lease && Date.now() - renewedAt >= options.renewMs) {
        renewedAt = Date.now();
        if ((await claim()) !== 'self') return false;
      }
    }
    return true;
  };

  const owning = (): boolean => (lease ? Date.now() < validUntil - options.renewMs : ownedWithoutLease);

  return {
    owning,
    async acquire(stop) {
      for (;;) {
        if (stop.aborted) return undefined;
        const previous = await claim();
        if (previous !== undefined) {
          const safe = previous === 'self' || previous === 'released' || (await gate(stop));
          if (stop.aborted) return undefined;
          if (!safe) continue;
          ownedWithoutLease = true;
          return startTerm(stop);
        }
        await sleep(options.renewMs, undefined, { signal: stop }).catch(() => undefined);
      }
    },
    async release() {
      ownedWithoutLease = false;
      if (!lease || validUntil === 0) return;
      validUntil = 0;
      await lease.release().catch((error: unknown) => report(options, error, false));
    },
  };

  function startTerm(stop: AbortSignal): OwnershipTerm {
    const lost = new AbortController();
    const signal = AbortSignal.any([stop, lost.signal]);
    if (!lease) return { signal, end: () => undefined };
    let renewing = false;
    const timer = setInterval(() => {
      if (renewing) return;
      renewing = true;
      void claim().then((answer) => {
        renewing = false;
        if (answer === undefined && !owning()) lost.abort();
        if (answer !== undefined && answer !== 'self') {
          // Someone else held it in between: our term is over even though we hold it again.
          lost.abort();
        }
      });
    }, options.renewMs);
    return {
      signal,
      end: () => clearInterval(timer),
    };
  }
}

function report(options: OwnershipOptions, error: unknown, willRetry: boolean): void {
  try {
    options.onError(error, { stage: 'lease', willRetry });
  } catch {
    // A failing logger must not end ownership.
  }
}
