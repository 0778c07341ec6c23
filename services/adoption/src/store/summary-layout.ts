import {
  changedSlots,
  overlaySlots,
  slotFactCount,
  type SummarySlot,
  type TenantSummary,
} from '../domain/index.js';
import type { SummaryStorage } from '../ports.js';

/**
 * Facts of the summary kept inline in the tenant's document. Past this the changed slots move to
 * a part of their own, so the document a write rewrites stays small (FerretDB reads and rewrites
 * a document whole, so its size is paid on every read and update).
 */
export const INLINE_SLOT_FACTS = 256;
/** Parts a summary may span before they are folded into one base (bounds a cold read). */
export const MAX_SUMMARY_PARTS = 16;

/** How a write stores the summary it folded. */
export type SummaryWrite =
  /** Only the inline layer changes (the common case: a batch touches a few slots). */
  | { readonly kind: 'inline'; readonly inline: readonly SummarySlot[] }
  /** The inline layer grew too large: it becomes a new part and the document keeps none. */
  | { readonly kind: 'delta'; readonly part: readonly SummarySlot[] }
  /** The deltas outweigh the base (or are too many): every slot goes to one new base part. */
  | { readonly kind: 'rebase'; readonly part: readonly SummarySlot[] };

/**
 * Decides where the slots a write changed go. Pure. Amortised cost per write: the changed slots,
 * plus a rebase only once the deltas written since the last one hold as many facts as its base
 * (so a rebase's size is paid for by the writes before it, as in a log-structured merge).
 */
export function planSummaryWrite(
  stored: SummaryStorage,
  before: TenantSummary,
  after: TenantSummary,
  asOf: number,
): SummaryWrite {
  const inline = overlaySlots([stored.inline, changedSlots(before, after)], asOf);
  const inlineFacts = slotFactCount(inline);
  if (inlineFacts <= INLINE_SLOT_FACTS) return { kind: 'inline', inline };
  const [base, ...deltas] = stored.parts;
  const deltaFacts = deltas.reduce((sum, part) => sum + part.facts, inlineFacts);
  if (base === undefined || stored.parts.length >= MAX_SUMMARY_PARTS || deltaFacts >= base.facts)
    return { kind: 'rebase', part: after.slots };
  return { kind: 'delta', part: inline };
}
