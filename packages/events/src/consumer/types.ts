import type { ProductEvent } from '@tap/contracts';

/** How this delivery of an event came about; a handler uses it to log, never to skip work. */
export interface DeliveryContext {
  /** True when the server delivered this message before (a failed attempt, an unacked crash). */
  readonly redelivered: boolean;
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
  /** The event's sequence in the stream: increases with publication order within the stream. */
  readonly streamSeq: number;
}

/**
 * Applies one event. Resolve only once the write is durable: the message is acked after that.
 * Throw to have it redelivered later; throw a PermanentEventError when retrying cannot help.
 * Delivery is at least once, so applying the same event twice must change nothing (the handler
 * records applied event ids in the aggregate's own document).
 */
export type EventHandler = (event: ProductEvent, delivery: DeliveryContext) => Promise<void>;

/** Why a message was not an event this consumer can hand to its handler. */
export type InvalidMessageReason = 'MALFORMED_JSON' | 'INVALID_EVENT' | 'SUBJECT_MISMATCH' | 'OVERSIZED';

/** Why a message was dead-lettered. */
export type DeadLetterReason =
  | InvalidMessageReason
  | 'PERMANENT_FAILURE'
  | 'RETRIES_EXHAUSTED'
  /** The batch handler refused the event for good (its reason is in the detail header). */
  | 'REJECTED';

/** A message that was recorded and acked instead of handled. */
export interface InvalidMessageReport {
  readonly reason: InvalidMessageReason;
  readonly errors: readonly string[];
  readonly subject: string;
  readonly streamSeq: number;
  readonly deliveryCount: number;
}

/** Where in the life of a message (or of the pull loop) an error happened. */
export type ConsumerErrorStage = 'handler' | 'ack' | 'dead-letter' | 'pull' | 'lease';

/** Context of an error passed to `onError`. */
export interface ConsumerErrorReport {
  readonly stage: ConsumerErrorStage;
  /** True when the message (or, for `pull`, the loop) will be tried again. */
  readonly willRetry: boolean;
  readonly subject?: string;
  readonly streamSeq?: number;
  readonly deliveryCount?: number;
  readonly eventId?: string;
  readonly eventType?: string;
}

/** Counters since the consumer started; each delivery counts, so redeliveries count again. */
export interface ConsumerStats {
  /** Messages taken from the stream, redeliveries included. */
  readonly delivered: number;
  /** Deliveries whose handler resolved (then acked). */
  readonly applied: number;
  /** Deliveries that were not a valid event (acked, dead-lettered when configured). */
  readonly invalid: number;
  /** Deliveries whose handler threw (retried, or given up on when permanent or exhausted). */
  readonly failed: number;
  /** Deliveries the server marked as redelivered. */
  readonly redelivered: number;
  /** Messages stored on the dead-letter subject. */
  readonly deadLettered: number;
}

/** Redelivery delay after a handler failure: `initialMs * 2^(deliveryCount-1)`, at most `maxMs`. */
export interface RetryBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** Options of startDurableConsumer. */
export interface DurableConsumerOptions {
  readonly streamName: string;
  /** The consumer's identity in the stream: a new instance with this name resumes where the last one acked. */
  readonly durableName: string;
  /** The events prefix, to check subjects and filters against (`events` in the contract). */
  readonly subjectPrefix: string;
  /**
   * Subjects this consumer takes, each inside the prefix (see eventKindFilter). None: every event.
   * More than one needs nats-server 2.10 or later.
   */
  readonly filterSubjects?: readonly string[];
  readonly handler: EventHandler;
  /** Called once per delivery of a message that is not a valid event, before it is acked. */
  readonly onInvalid: (report: InvalidMessageReport) => void;
  /** Called for every handler failure and every transport error; nothing is dropped silently. */
  readonly onError: (error: unknown, report: ConsumerErrorReport) => void;
  /** Deliveries before a failing message is given up on; defaults to DEFAULT_MAX_DELIVER. */
  readonly maxDeliver?: number;
  /** Defaults to DEFAULT_ACK_WAIT_MS; a handler must finish well inside it. */
  readonly ackWaitMs?: number;
  /** Defaults to DEFAULT_RETRY_INITIAL_MS and DEFAULT_RETRY_MAX_MS. */
  readonly retryBackoff?: Partial<RetryBackoff>;
  /** Messages pulled ahead of the one being handled; defaults to DEFAULT_PULL_BATCH. */
  readonly pullBatch?: number;
  /** Decides which handler errors are permanent; defaults to isPermanentEventError. */
  readonly isPermanent?: (error: unknown) => boolean;
  /**
   * Where to republish what is given up on (see deadLetterSubject); a stream must capture it
   * (see ensureDeadLetterStream). Without it, the onInvalid/onError report is the only record.
   */
  readonly deadLetter?: { readonly subject: string };
}

/** A running durable consumer. */
export interface DurableConsumer {
  readonly durableName: string;
  /**
   * Stops pulling, lets the message being handled finish and be acked, hands back the ones
   * pulled ahead (so another replica takes them now), then resolves. Call it before draining
   * the connection. Idempotent.
   */
  stop(): Promise<void>;
  stats(): ConsumerStats;
}
