import { isProductEventKind, type ProductEventKind } from '@tap/contracts';
import { DEFAULT_DEAD_LETTER_PREFIX } from './defaults.js';

/** `<prefix>.*.<kind>`: a consumer filter for one event kind across every tenant. */
export function eventKindFilter(kind: ProductEventKind, prefix: string): string {
  return `${prefix}.*.${kind}`;
}

/** `<prefix>.<tenantId>.>`: a consumer filter for every event of one tenant. */
export function tenantEventsFilter(tenantId: string, prefix: string): string {
  return `${prefix}.${tenantId}.>`;
}

/** `deadletter.<durableName>`: where a durable consumer republishes what it gave up on. */
export function deadLetterSubject(durableName: string, prefix: string = DEFAULT_DEAD_LETTER_PREFIX): string {
  return `${prefix}.${durableName}`;
}

/**
 * The event kind named by a subject `<prefix>.<tenantId>.<kind>`, or undefined when the subject
 * does not name a known kind (the span name must not carry whatever a bad publisher sent).
 */
export function kindOfSubject(subject: string, prefix: string): ProductEventKind | undefined {
  if (!subject.startsWith(`${prefix}.`)) return undefined;
  const rest = subject.slice(prefix.length + 1);
  const dot = rest.indexOf('.');
  if (dot < 0) return undefined;
  const kind = rest.slice(dot + 1);
  return isProductEventKind(kind) ? kind : undefined;
}
