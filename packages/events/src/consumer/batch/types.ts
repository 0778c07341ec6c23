import type { ProductEvent } from '@tap/contracts';
import type { ConsumerLease } from '../../lease/consumer-lease.js';
import type { ConsumerErrorReport, InvalidMessageReport, RetryBackoff } from '../types.js';

/** One event of a batch with its place in the stream. */
export interface BatchItem {
  readonly event: ProductEvent;
  /** The message's stream sequence: increases with publication order, the store's `lastSeq` fence. */
  readonly seq: number;
  readonly redelivered: boolean;
  readonly deliveryCount: number;
}

/** One tenant's events of a batch, in stream order. */
export interface TenantGroup {
  readonly tenantId: string;
  readonly items: readonly BatchItem[];
}

/** An event the handler refused for good: it is dead-lettered with `reason`, then acked. */
export interface RejectedItem {
  readonly seq: number;
  readonly reason: string;
}

/**
 * What became of one tenant's group.
 * - `ok`: the tenant's write is durable (or every item was already applied); its messages are
 *   acked, except `rejected` ones, which are dead-lettered first (and acked).
 * - `retry`: the write failed and may succeed later; the group is offered again in process,
 *   with backoff, before the next batch is taken, so no later event of the tenant overtakes it.
 */
export type TenantOutcome =
  | { readonly kind: 'ok'; readonly rejected?: readonly RejectedItem[] }
  | { readonly kind: 'retry'; readonly reason: string; readonly error?: unknown };

/**
 * Applies a batch: one write per tenant, idempotent per `seq` (skip `seq <= lastSeq`). Answers
 * every group; a group without an answer, or a handler that throws, counts as `retry`.
 */
export type BatchHandler = (groups: readonly TenantGroup[]) => Promise<ReadonlyMap<string, TenantOutcome>>;

/** What one batch did, for metrics and logs. */
export interface BatchReport {
  readonly messages: number;
  readonly tenants: number;
  readonly applied: number;
  readonly deadLettered: number;
  /** Handler calls it took (1 when nothing was retried). */
  readonly attempts: number;
  readonly durationMs: number;
  /**
   * How old the batch's oldest message was when the handler got it: from the stream's stored
   * timestamp (publish) to the start of handling, so the pull, the flush window and the wait
   * behind the previous batch. Where a message's publish → applied time goes before its write.
   */
  readonly waitedMs: number;
}

/** Counters since the consumer started; redeliveries count again. */
export interface BatchConsumerStats {
  readonly batches: number;
  readonly delivered: number;
  /** Deliveries the server marked as redelivered (a crash, a hand-back, an ack wait run out). */
  readonly redelivered: number;
  readonly applied: number;
  readonly invalid: number;
  readonly deadLettered: number;
  /** Tenant groups offered again after a `retry` outcome. */
  readonly retried: number;
  /** Messages handed back unprocessed (stop, lost lease). */
  readonly released: number;
}

/** Options of startBatchConsumer. */
export interface BatchConsumerOptions {
  readonly streamName: string;
  readonly durableName: string;
  readonly subjectPrefix: string;
  /** Inside the prefix; none: every event. More than one needs nats-server 2.10. */
  readonly filterSubjects?: readonly string[];
  readonly handleBatch: BatchHandler;
  /** At most this many messages per batch; defaults to DEFAULT_BATCH_SIZE. */
  readonly batchSize?: number;
  /** A batch is cut this long after its first message arrived, full or not; DEFAULT_FLUSH_WINDOW_MS. */
  readonly flushWindowMs?: number;
  /** Bigger payloads are dead-lettered as OVERSIZED; DEFAULT_MAX_EVENT_BYTES. */
  readonly maxEventBytes?: number;
  /** Defaults to DEFAULT_BATCH_ACK_WAIT_MS; also how long a new owner waits for orphaned messages. */
  readonly ackWaitMs?: number;
  /** Backoff of the in-process retries of a tenant group; defaults as the durable consumer's. */
  readonly retryBackoff?: Partial<RetryBackoff>;
  /** The single-owner lease; without it, run exactly one replica (see docs/events.md). */
  readonly lease?: ConsumerLease;
  /** How often the lease is renewed (and, when not held, claimed); defaults to a third of its TTL. */
  readonly leaseRenewMs?: number;
  readonly onInvalid: (report: InvalidMessageReport) => void;
  readonly onError: (error: unknown, report: ConsumerErrorReport) => void;
  readonly onBatch?: (report: BatchReport) => void;
  /** Where dead letters go (see deadLetterSubject); without it the reports are the only record. */
  readonly deadLetter?: { readonly subject: string };
}

/** A running batch consumer. */
export interface BatchConsumer {
  readonly durableName: string;
  /** True while this instance owns the consumer (always true without a lease once started). */
  owning(): boolean;
  /**
   * Stops pulling, lets the batch being handled finish and be acked, hands back what was pulled
   * ahead, releases the lease, then resolves. Idempotent.
   */
  stop(): Promise<void>;
  stats(): BatchConsumerStats;
}
