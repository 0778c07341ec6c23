import { isEventKind } from '../catalogue/event-kinds.js';
import type { TimedFact } from '../facts/fact-log.js';
import type { EventFact } from '../facts/facts.js';
import type { ItemCounts } from '../items/distinct-items.js';
import { parseInstant } from '../time.js';
import type { Keep, SlotClaim } from './retention.js';
import { slotClaims } from './retention.js';

/** Applied facts of one kind: how many, and the earliest and latest `occurredAt` seen. */
export interface KindCounter {
  readonly kind: string;
  readonly count: number;
  readonly firstAt: string;
  readonly lastAt: string;
}

/** Facts kept under one key, in canonical order. */
export interface SummarySlot {
  readonly key: string;
  readonly keep: Keep;
  readonly n: number;
  readonly expiresAt: number | null;
  readonly facts: readonly EventFact[];
}

/**
 * What a tenant's history is reduced to: counters per kind and per distinct-item space, and the
 * few facts each rule can still read (the slots of retention.ts). Its size is bounded by the
 * catalogue, the windows the rules look back over (days of activity, risk history) and the
 * tenant's partner connections; never by its products or the number of its events.
 * Plain arrays sorted by key, so it stores as one document and compares with `toEqual`.
 */
export interface TenantSummary {
  /** Facts folded in (after dropping unknown kinds and bad timestamps; redeliveries are the caller's to skip). */
  readonly applied: number;
  readonly kinds: readonly KindCounter[];
  readonly slots: readonly SummarySlot[];
  /**
   * Distinct items (products, viewed products, policies, ...) as counters: the items themselves
   * are markers in the store (domain/items), never here. Absent in summaries stored before them.
   */
  readonly items?: ItemCounts;
}

/** The summary of a tenant with no history. */
export const EMPTY_SUMMARY: TenantSummary = { applied: 0, kinds: [], slots: [], items: {} };

function compareFacts(a: TimedFact, b: TimedFact): number {
  if (a.at !== b.at) return a.at - b.at;
  if (a.id !== b.id) return a.id < b.id ? -1 : 1;
  return a.type < b.type ? -1 : a.type > b.type ? 1 : 0;
}

function timed(fact: EventFact): TimedFact | null {
  const at = parseInstant(fact.occurredAt);
  return at === null || !isEventKind(fact.type) ? null : { ...fact, type: fact.type, at };
}

function untimed(fact: TimedFact): EventFact {
  return {
    id: fact.id,
    type: fact.type,
    occurredAt: fact.occurredAt,
    subject: fact.subject,
    data: fact.data,
  };
}

function trim(facts: TimedFact[], keep: Keep, n: number): TimedFact[] {
  if (facts.length <= (keep === 'ends' ? 2 * n : n)) return facts;
  if (keep === 'first') return facts.slice(0, n);
  if (keep === 'last') return facts.slice(-n);
  return [...facts.slice(0, n), ...facts.slice(-n)];
}

function laterExpiry(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : Math.max(a, b);
}

interface MutableSlot {
  claim: SlotClaim;
  facts: TimedFact[];
}

function insert(slot: MutableSlot, fact: TimedFact): void {
  if (slot.facts.some((f) => f.id === fact.id)) return;
  const index = slot.facts.findIndex((f) => compareFacts(fact, f) < 0);
  if (index === -1) slot.facts.push(fact);
  else slot.facts.splice(index, 0, fact);
  slot.facts = trim(slot.facts, slot.claim.keep, slot.claim.n);
}

function countKind(counters: Map<string, KindCounter>, fact: TimedFact): void {
  const seen = counters.get(fact.type);
  if (seen === undefined) {
    counters.set(fact.type, { kind: fact.type, count: 1, firstAt: fact.occurredAt, lastAt: fact.occurredAt });
    return;
  }
  const earlier = (parseInstant(seen.firstAt) ?? fact.at) > fact.at;
  const later = (parseInstant(seen.lastAt) ?? fact.at) < fact.at;
  counters.set(fact.type, {
    kind: fact.type,
    count: seen.count + 1,
    firstAt: earlier ? fact.occurredAt : seen.firstAt,
    lastAt: later ? fact.occurredAt : seen.lastAt,
  });
}

/**
 * Folds facts into a summary: pure, and the same summary whatever order the facts come in
 * (each slot keeps the canonical first or last of its facts) and however they are split into
 * calls. Slots whose window closed before `now` are dropped. Cost: the facts folded times the
 * few slots each claims, independent of the history already summarised.
 */
export function foldFacts(summary: TenantSummary, facts: readonly EventFact[], now: Date): TenantSummary {
  const nowMs = now.getTime();
  const slots = new Map<string, MutableSlot>();
  for (const slot of summary.slots) {
    if (slot.expiresAt !== null && slot.expiresAt <= nowMs) continue;
    const kept = slot.facts.map(timed).filter((f): f is TimedFact => f !== null);
    slots.set(slot.key, {
      claim: { key: slot.key, keep: slot.keep, n: slot.n, expiresAt: slot.expiresAt },
      facts: kept,
    });
  }
  const counters = new Map(summary.kinds.map((k) => [k.kind, k]));
  let applied = summary.applied;
  for (const raw of facts) {
    const fact = timed(raw);
    if (fact === null) continue;
    applied += 1;
    countKind(counters, fact);
    for (const claim of slotClaims(fact, nowMs)) {
      const slot = slots.get(claim.key) ?? { claim, facts: [] };
      // The latest expiry of the slot's claims, so that the order facts arrive in changes nothing.
      slot.claim = { ...slot.claim, expiresAt: laterExpiry(slot.claim.expiresAt, claim.expiresAt) };
      insert(slot, fact);
      slots.set(claim.key, slot);
    }
  }
  const byKey = <T extends { key?: string; kind?: string }>(a: T, b: T): number => {
    const ka = a.key ?? a.kind ?? '';
    const kb = b.key ?? b.kind ?? '';
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  };
  return {
    applied,
    items: summary.items ?? {},
    kinds: [...counters.values()].sort(byKey),
    slots: [...slots.values()]
      .map(({ claim, facts: kept }) => ({ ...claim, facts: kept.map(untimed) }))
      .sort(byKey),
  };
}

/**
 * The facts the rules read, each once, in canonical order: feed them to `recompute`,
 * `coverageCells` or `detectRiskSignals` in place of the whole history.
 */
export function summaryFacts(summary: TenantSummary): readonly EventFact[] {
  const unique = new Map<string, TimedFact>();
  for (const slot of summary.slots) {
    for (const raw of slot.facts) {
      const fact = timed(raw);
      if (fact !== null && !unique.has(fact.id)) unique.set(fact.id, fact);
    }
  }
  return [...unique.values()].sort(compareFacts).map(untimed);
}

/** True when the summary keeps a fact with this id (a recent-duplicate check; the batched path uses stream sequences). */
export function summaryHolds(summary: TenantSummary, factId: string): boolean {
  return summary.slots.some((slot) => slot.facts.some((f) => f.id === factId));
}
