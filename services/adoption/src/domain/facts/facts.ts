import type { ProductEventEnvelope } from '@tap/contracts';
import { isEventKind } from '../catalogue/event-kinds.js';
import { parseInstant } from '../time.js';

/** A product event as it travels on the bus (the contract's envelope, its kind not yet checked). */
export type EventEnvelope = ProductEventEnvelope;

/**
 * The compact record adoption keeps of one applied event: enough to replay every rule, small
 * enough to keep for a tenant's whole history in its aggregate document.
 */
export interface EventFact {
  /** The event id; facts are deduplicated on it. */
  readonly id: string;
  readonly type: string;
  readonly occurredAt: string;
  readonly subject: Readonly<Record<string, string>>;
  /** Only the data fields adoption reads (see FACT_DATA_FIELDS), as strings. */
  readonly data: Readonly<Record<string, string>>;
}

/** A milestone completed by hand (POST .../milestones/{key}/complete). */
export interface ManualCompletion {
  /** Id of the `milestone.completed` event emitted for it. */
  readonly id: string;
  readonly key: string;
  readonly completedAt: string;
  readonly evidenceRef: string | null;
  readonly actorId: string | null;
}

/** The data fields a fact keeps; everything else in `data` is dropped. */
export const FACT_DATA_FIELDS = ['evidenceRef', 'actorId', 'partnerTenantId', 'viewerTenantId'] as const;

/**
 * The fact to keep for an event, or null when adoption has no use for it: an unknown kind (the
 * contract may grow before we do) or an `occurredAt` that is not a timestamp.
 */
export function toFact(envelope: EventEnvelope): EventFact | null {
  if (!isEventKind(envelope.type) || parseInstant(envelope.occurredAt) === null) return null;
  const subject: Record<string, string> = {};
  for (const [key, value] of Object.entries(envelope.subject)) {
    if (typeof value === 'string') subject[key] = value;
  }
  const data: Record<string, string> = {};
  for (const field of FACT_DATA_FIELDS) {
    const value = envelope.data[field];
    if (typeof value === 'string') data[field] = value;
  }
  return { id: envelope.id, type: envelope.type, occurredAt: envelope.occurredAt, subject, data };
}
