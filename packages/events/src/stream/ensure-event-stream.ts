import { allEventsSubject } from '@tap/contracts';
import type { JetStreamManager, StreamInfo } from '@nats-io/jetstream';
import { ensureStream } from './ensure-stream.js';

/** Options of {@link ensureEventStream}. */
export interface EventStreamOptions {
  readonly streamName: string;
  /** The contract's prefix is `events` (DEFAULT_EVENT_SUBJECT_PREFIX); tests use their own. */
  readonly subjectPrefix: string;
  /** A publish retried with the same event id within this window is stored once. */
  readonly duplicateWindowMs: number;
  /** How long events are kept; omitted or 0 keeps them until another limit removes them. */
  readonly maxAgeMs?: number;
  /** Copies of the stream in a cluster; 1 on a single server. */
  readonly replicas?: number;
}

/**
 * Creates or updates the stream that captures every tenant's product events
 * (`<prefix>.>`): file storage, limits retention, and a duplicate window so that the event id,
 * sent as the message id, deduplicates a producer's retry. Idempotent; call it at every start.
 */
export function ensureEventStream(jsm: JetStreamManager, options: EventStreamOptions): Promise<StreamInfo> {
  return ensureStream(jsm, {
    name: options.streamName,
    subjects: [allEventsSubject(options.subjectPrefix)],
    duplicateWindowMs: options.duplicateWindowMs,
    maxAgeMs: options.maxAgeMs ?? 0,
    replicas: options.replicas ?? 1,
  });
}
