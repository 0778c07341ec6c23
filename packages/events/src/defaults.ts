/** Subjects of dead letters start here, outside the events prefix so the event stream never captures them. */
export const DEFAULT_DEAD_LETTER_PREFIX = 'deadletter';

/**
 * A suggested duplicate window for the event stream: a producer that retries a publish with the
 * same event id within this window has the retry stored once. Long enough to outlast a restart.
 */
export const DEFAULT_DUPLICATE_WINDOW_MS = 10 * 60_000;

/** How long a publish waits for the stream's acknowledgement before it fails. */
export const DEFAULT_PUBLISH_TIMEOUT_MS = 5_000;

/** Deliveries of one message before the consumer gives up on it (dead-letters and terminates it). */
export const DEFAULT_MAX_DELIVER = 5;

/** How long the server waits for an ack before it redelivers; a handler must finish well inside it. */
export const DEFAULT_ACK_WAIT_MS = 30_000;

/** First delay before a failed message is redelivered; doubles with each delivery. */
export const DEFAULT_RETRY_INITIAL_MS = 1_000;

/** Ceiling of the redelivery delay. */
export const DEFAULT_RETRY_MAX_MS = 60_000;

/**
 * Messages pulled ahead of the one being handled. Handlers run one at a time, so a large batch
 * only lets messages wait in memory while their ack-wait timer runs.
 */
export const DEFAULT_PULL_BATCH = 8;

/**
 * How long one pull request stays open (the server's minimum is 1 s). A stop waits at most this
 * long for the request in progress to end before it hands back what that request brought.
 */
export const DEFAULT_FETCH_EXPIRES_MS = 1_000;

/**
 * How long after its expiry the pull loop ends a request itself. The server is done with a request
 * at its expiry, but the client is not always told: nats-server 2.9 can drop an expired request
 * without its 408 answer when a message comes in at that instant, and a request the loop has not
 * read for a while (a slow handler, a full batch queue) hears nothing more either way. Left to
 * nats.js, such a request ends a second or more later with `heartbeats missed`. The grace covers
 * what the server delivered just before the expiry, still on its way.
 */
export const FETCH_END_GRACE_MS = 100;

/** Delays before the pull loop is restarted after the library ended it (consumer deleted, reconnect). */
export const PULL_RESTART_INITIAL_MS = 250;
export const PULL_RESTART_MAX_MS = 10_000;

/** Messages per batch of a batch consumer: enough that one busy tenant's write covers hundreds of events. */
export const DEFAULT_BATCH_SIZE = 500;

/**
 * How long a batch consumer waits, after a batch's first message arrived, for the batch to fill.
 * The latency price of batching (publish → applied), bounded well under the 500 ms target.
 */
export const DEFAULT_FLUSH_WINDOW_MS = 150;

/** Payloads above this are dead-lettered as OVERSIZED by a batch consumer (events are small records). */
export const DEFAULT_MAX_EVENT_BYTES = 64 * 1024;

/**
 * A batch consumer's ack wait. Shorter than the per-message consumer's: a new owner waits up to
 * this long for a dead owner's unacked messages before it pulls (the orphan gate).
 */
export const DEFAULT_BATCH_ACK_WAIT_MS = 15_000;

/** A suggested consumer-lease TTL: how long a dead owner blocks a take-over, at most. */
export const DEFAULT_LEASE_TTL_MS = 10_000;
