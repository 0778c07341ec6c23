import { eventSubject, parseProductEvent, type ProductEvent } from '@tap/contracts';
import type { InvalidMessageReason } from './types.js';

/** A message's payload as an event, or why it is not one. */
export type DecodedMessage =
  | { readonly ok: true; readonly event: ProductEvent }
  | { readonly ok: false; readonly reason: InvalidMessageReason; readonly errors: readonly string[] };

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes and checks one message against the contract. The subject must be the one the event
 * names: consumers may be authorised or filtered by subject, so an event for tenant A published
 * on tenant B's subject is rejected rather than applied to A.
 */
export function decodeMessage(subject: string, data: Uint8Array, prefix: string): DecodedMessage {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(data));
  } catch (error) {
    return {
      ok: false,
      reason: 'MALFORMED_JSON',
      errors: [error instanceof Error ? error.message : String(error)],
    };
  }
  const parsed = parseProductEvent(value);
  if (!parsed.ok) return { ok: false, reason: 'INVALID_EVENT', errors: parsed.errors };
  const expected = eventSubject(parsed.event.tenantId, parsed.event.type, prefix);
  if (subject !== expected) {
    return {
      ok: false,
      reason: 'SUBJECT_MISMATCH',
      errors: [`published on ${subject}, the event belongs on ${expected}`],
    };
  }
  return { ok: true, event: parsed.event };
}
