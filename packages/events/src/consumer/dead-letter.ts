import type { JetStreamClient, JsMsg } from '@nats-io/jetstream';
import { headers } from '@nats-io/nats-core';
import type { DeadLetterReason } from './types.js';

/** Headers a dead letter carries next to the original payload and headers. */
export const DEAD_LETTER_HEADERS = {
  reason: 'Tap-Dead-Letter-Reason',
  detail: 'Tap-Dead-Letter-Detail',
  subject: 'Tap-Original-Subject',
  stream: 'Tap-Original-Stream',
  sequence: 'Tap-Original-Sequence',
  consumer: 'Tap-Consumer',
  deliveryCount: 'Tap-Delivery-Count',
} as const;

const MAX_DETAIL_LENGTH = 500;

export interface DeadLetterTarget {
  readonly js: JetStreamClient;
  readonly subject: string;
  readonly consumer: string;
}

/**
 * Republishes `msg` unchanged to the dead-letter subject, with why it was given up on. The
 * message id is derived from consumer, stream and sequence, so a consumer that crashed after
 * this and before its ack stores the dead letter once. Trace headers are carried over; the
 * server's own `Nats-*` headers are not (a copied Nats-Msg-Id would dedupe the wrong way).
 */
export async function publishDeadLetter(
  target: DeadLetterTarget,
  msg: JsMsg,
  reason: DeadLetterReason,
  detail: string,
): Promise<void> {
  const out = headers();
  for (const [key, values] of msg.headers ?? []) {
    if (key.toLowerCase().startsWith('nats-')) continue;
    for (const value of values) out.append(key, value);
  }
  out.set(DEAD_LETTER_HEADERS.reason, reason);
  out.set(DEAD_LETTER_HEADERS.detail, headerSafe(detail));
  out.set(DEAD_LETTER_HEADERS.subject, msg.subject);
  out.set(DEAD_LETTER_HEADERS.stream, msg.info.stream);
  out.set(DEAD_LETTER_HEADERS.sequence, String(msg.info.streamSequence));
  out.set(DEAD_LETTER_HEADERS.consumer, target.consumer);
  out.set(DEAD_LETTER_HEADERS.deliveryCount, String(msg.info.deliveryCount));
  await target.js.publish(target.subject, msg.data, {
    headers: out,
    msgID: `${target.consumer}:${msg.info.stream}:${msg.info.streamSequence}`,
  });
}

// Header values end at a line break; an error message must not be able to forge headers.
function headerSafe(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').slice(0, MAX_DETAIL_LENGTH);
}
