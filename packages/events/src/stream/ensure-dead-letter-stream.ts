import type { JetStreamManager, StreamInfo } from '@nats-io/jetstream';
import { DEFAULT_DEAD_LETTER_PREFIX } from '../defaults.js';
import { ensureStream } from './ensure-stream.js';

/** Options of {@link ensureDeadLetterStream}. */
export interface DeadLetterStreamOptions {
  readonly streamName: string;
  /** Defaults to `deadletter`; must not start with the events prefix, or two streams would overlap. */
  readonly subjectPrefix?: string;
  /** How long dead letters are kept for an operator to inspect; omitted or 0 keeps them. */
  readonly maxAgeMs?: number;
  readonly replicas?: number;
}

// Dead letters are republished with an id derived from the original message, so a consumer that
// crashed between dead-lettering and acking does not store the same dead letter twice.
const DEAD_LETTER_DUPLICATE_WINDOW_MS = 2 * 60_000;

/**
 * Creates or updates the stream that keeps dead letters (`<prefix>.>`), so that what a consumer
 * gave up on is stored for inspection and replay rather than only logged. Idempotent.
 */
export function ensureDeadLetterStream(
  jsm: JetStreamManager,
  options: DeadLetterStreamOptions,
): Promise<StreamInfo> {
  const maxAgeMs = options.maxAgeMs ?? 0;
  return ensureStream(jsm, {
    name: options.streamName,
    subjects: [`${options.subjectPrefix ?? DEFAULT_DEAD_LETTER_PREFIX}.>`],
    duplicateWindowMs:
      maxAgeMs > 0 ? Math.min(DEAD_LETTER_DUPLICATE_WINDOW_MS, maxAgeMs) : DEAD_LETTER_DUPLICATE_WINDOW_MS,
    maxAgeMs,
    replicas: options.replicas ?? 1,
  });
}
