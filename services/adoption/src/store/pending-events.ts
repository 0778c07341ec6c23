import type { PushOperator } from 'mongodb';
import type { OutboundEvent } from '../domain/index.js';
import type { AggregateDocument } from './aggregate-document.js';

/**
 * Outbound events as a document's outbox stores them: one JSON string each. A string is pulled
 * by exact value (`$pullAll`: FerretDB v1 ignores a `$pull` with a condition), and FerretDB
 * converts one string far more cheaply than a nested object (docs/foundation.md, "FerretDB's limits").
 * The string written is the one pulled: it is never re-encoded on the way.
 */
export function packEvents(events: readonly OutboundEvent[]): string[] {
  return events.map((event) => JSON.stringify(event));
}

/** The stored events whose JSON is intact (anything else is skipped: it can never be published). */
export function unpackEvents(stored: readonly string[] | undefined): { event: OutboundEvent; raw: string }[] {
  const found: { event: OutboundEvent; raw: string }[] = [];
  for (const raw of stored ?? []) {
    try {
      const event = JSON.parse(raw) as OutboundEvent;
      if (typeof event.id === 'string') found.push({ event, raw });
    } catch {
      // A string that is not JSON was not written by packEvents.
    }
  }
  return found;
}

/** A write's `$push` with its outbound events added to the document's outbox (none: unchanged). */
export function withPendingEvents(
  push: PushOperator<AggregateDocument> | undefined,
  events: readonly OutboundEvent[],
): PushOperator<AggregateDocument> | undefined {
  if (events.length === 0) return push;
  return { ...push, pendingEvents: { $each: packEvents(events) } } as PushOperator<AggregateDocument>;
}
