export {
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_DEAD_LETTER_PREFIX,
  DEFAULT_DUPLICATE_WINDOW_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_PUBLISH_TIMEOUT_MS,
  DEFAULT_FETCH_EXPIRES_MS,
  DEFAULT_PULL_BATCH,
  DEFAULT_RETRY_INITIAL_MS,
  DEFAULT_RETRY_MAX_MS,
  DEFAULT_BATCH_SIZE,
  DEFAULT_FLUSH_WINDOW_MS,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_BATCH_ACK_WAIT_MS,
  DEFAULT_LEASE_TTL_MS,
} from './defaults.js';
export { eventErrors, PermanentEventError, isPermanentEventError } from './errors.js';
export { ensureEventStream } from './stream/ensure-event-stream.js';
export type { EventStreamOptions } from './stream/ensure-event-stream.js';
export { ensureDeadLetterStream } from './stream/ensure-dead-letter-stream.js';
export type { DeadLetterStreamOptions } from './stream/ensure-dead-letter-stream.js';
export { createEventPublisher } from './publisher.js';
export type { EventPublisher, EventPublisherOptions, PublishResult } from './publisher.js';
export { currentConnectionPublisher } from './current-publisher.js';
export { startDurableConsumer } from './consumer/start-durable-consumer.js';
export { startBatchConsumer } from './consumer/batch/start-batch-consumer.js';
export type {
  BatchConsumer,
  BatchConsumerOptions,
  BatchConsumerStats,
  BatchHandler,
  BatchItem,
  BatchReport,
  RejectedItem,
  TenantGroup,
  TenantOutcome,
} from './consumer/batch/types.js';
export { createRedisLease } from './lease/redis-lease.js';
export type { LeaseRedis, RedisLeaseOptions } from './lease/redis-lease.js';
export type { ConsumerLease, LeaseClaim } from './lease/consumer-lease.js';
export { DEAD_LETTER_HEADERS } from './consumer/dead-letter.js';
export { redeliveryDelayMs } from './consumer/backoff.js';
export type {
  ConsumerErrorReport,
  ConsumerErrorStage,
  ConsumerStats,
  DeadLetterReason,
  DeliveryContext,
  DurableConsumer,
  DurableConsumerOptions,
  EventHandler,
  InvalidMessageReason,
  InvalidMessageReport,
  RetryBackoff,
} from './consumer/types.js';
export { deadLetterSubject, eventKindFilter, tenantEventsFilter } from './subjects.js';
export { extractTraceContext, injectTraceContext } from './trace-headers.js';
export { EVENTS_TRACER_NAME } from './tracing.js';
export {
  parseChangeNotice,
  publishChangeNotice,
  readModelNoticeSubject,
  startChangeNotices,
  createChangeChannel,
  whileHeard,
  subscribeChangeNotices,
} from './read-model/notices.js';
export type { ChangeChannel, ChangeNotice, ChangeNotices, HearingConnection } from './read-model/notices.js';
export { createDomainEventPublisher } from './domain/domain-publisher.js';
export type { DomainEventPublisher, DomainEventPublisherOptions } from './domain/domain-publisher.js';
export { startDomainEventConsumer } from './domain/domain-consumer.js';
export type { DomainEventConsumer, DomainEventConsumerOptions } from './domain/domain-consumer.js';
