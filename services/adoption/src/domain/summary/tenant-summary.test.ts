import { describe, expect, it } from '@jest/globals';
import { MILESTONE_DEFINITIONS } from '../catalogue/catalogue-data.js';
import { EVENT_KINDS } from '../catalogue/event-kinds.js';
import { coverageCells } from '../coverage/coverage-cells.js';
import { countItems } from '../items/distinct-items.js';
import type { EventFact } from '../facts/facts.js';
import { detectRiskSignals } from '../risk/detect-risk-signals.js';
import { recompute } from '../state/recompute.js';
import { ALL_CAPABILITIES, completion, dayAt, fact, recomputeInput } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { EMPTY_SUMMARY, foldFacts, summaryFacts, summaryHolds } from './tenant-summary.js';

// A small deterministic PRNG (mulberry32), so a failing seed can be replayed.
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const REFS = [
  'productId',
  'connectionId',
  'requestId',
  'policyId',
  'integrationId',
  'importId',
  'cascadeId',
  'dataSetId',
];
const MILESTONE_KEYS = MILESTONE_DEFINITIONS.map((d) => d.key);

/**
 * A history of `size` facts spread over `spanDays` before `nowDay`: every kind, refs from
 * small pools (so items repeat, get archived, answered, removed), partner and viewer tenants,
 * some refs missing, some duplicates, a few facts a little in the future.
 */
function history(seed: number, size: number, spanDays: number, nowDay: number): EventFact[] {
  const next = random(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
  const facts: EventFact[] = [];
  for (let i = 0; i < size; i += 1) {
    const type = pick(EVENT_KINDS);
    const day = nowDay - spanDays + next() * (spanDays + 0.5);
    const subject: Record<string, string> = {};
    for (const ref of REFS) if (next() < 0.35) subject[ref] = `${ref[0]}${Math.floor(next() * 6)}`;
    if (type === 'milestone.completed') subject['milestoneKey'] = pick(MILESTONE_KEYS);
    const data: Record<string, string> = {};
    if (next() < 0.4) data['partnerTenantId'] = `t${Math.floor(next() * 4)}`;
    if (next() < 0.4) data['viewerTenantId'] = `t${Math.floor(next() * 4)}`;
    facts.push(fact(type, Math.round(day * 1000) / 1000, subject, { id: `e-${seed}-${i}`, data }));
    if (next() < 0.05) facts.push(facts[facts.length - 1] as EventFact);
  }
  return facts;
}

function shuffled<T>(values: readonly T[], seed: number): T[] {
  const next = random(seed);
  const copy = [...values];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Folds facts in chunks, the clock moving forward with each (as a consumer would). */
function foldInChunks(facts: readonly EventFact[], chunk: number, fromDay: number, toDay: number) {
  let summary = EMPTY_SUMMARY;
  const steps = Math.ceil(facts.length / chunk);
  for (let i = 0; i < steps; i += 1) {
    const day = fromDay + ((toDay - fromDay) * (i + 1)) / steps;
    summary = foldFacts(summary, facts.slice(i * chunk, (i + 1) * chunk), dayAt(day));
  }
  return summary;
}

describe('the tenant summary', () => {
  const NOW = 200;
  // Sparse histories over most of the windows, and dense ones (many facts per subject and day).
  const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);
  const SHAPE = (seed: number): [number, number] => (seed % 2 === 0 ? [160, 170] : [600, 12]);

  it.each(SEEDS)('gives the same state, explanation and signals as the whole history (seed %i)', (seed) => {
    const facts = history(seed, ...SHAPE(seed), NOW);
    const summary = foldInChunks(shuffled(facts, seed), 7, NOW - 1, NOW);
    const manualCompletions = [completion('kickoff_call_held', NOW - 30)];
    for (const capabilities of [[], ALL_CAPABILITIES]) {
      const input = recomputeInput({ capabilities, manualCompletions, now: dayAt(NOW), version: 4 });
      expect(recompute({ ...input, facts: summaryFacts(summary) })).toEqual(recompute({ ...input, facts }));
    }
  });

  it.each(SEEDS)('gives the same coverage grid and risk signals as the whole history (seed %i)', (seed) => {
    const facts = history(seed, ...SHAPE(seed), NOW);
    const summary = foldInChunks(facts, 13, NOW - 1, NOW);
    const kept = summaryFacts(summary);
    for (const capabilities of [[], ALL_CAPABILITIES]) {
      const items = countItems(facts);
      expect(coverageCells({ facts: kept, items, capabilities })).toEqual(
        coverageCells({ facts, items, capabilities }),
      );
    }
    const now = dayAt(NOW);
    expect(detectRiskSignals({ companyId: 't-1', facts: kept, now })).toEqual(
      detectRiskSignals({ companyId: 't-1', facts, now }),
    );
  });

  it('gives the same state as the whole history for the worked example', () => {
    const summary = foldFacts(EMPTY_SUMMARY, WORKED_EXAMPLE.facts, WORKED_EXAMPLE.now);
    expect(recompute({ ...WORKED_EXAMPLE, facts: summaryFacts(summary) })).toEqual(recompute(WORKED_EXAMPLE));
  });

  it('is the same summary whatever order and chunks the facts arrive in', () => {
    const facts = history(7, 300, 60, NOW);
    const once = foldFacts(EMPTY_SUMMARY, facts, dayAt(NOW));
    const reordered = foldInChunks(shuffled(facts, 99), 11, NOW, NOW);
    expect(reordered.slots).toEqual(once.slots);
    expect(reordered.kinds).toEqual(once.kinds);
  });

  it('stays the same size however many events one product and one integration produce', () => {
    const burst = (from: number, count: number): EventFact[] =>
      Array.from({ length: count }, (_, i) =>
        fact(
          i % 2 === 0 ? 'product.updated' : 'integration.succeeded',
          NOW - 1 + (from + i) / 1e7,
          {
            productId: 'p-1',
            integrationId: 'i-1',
          },
          { id: `burst-${from + i}` },
        ),
      );
    const small = foldFacts(EMPTY_SUMMARY, burst(0, 1_000), dayAt(NOW));
    let large = small;
    for (let from = 1_000; from < 20_000; from += 1_000)
      large = foldFacts(large, burst(from, 1_000), dayAt(NOW));
    expect(large.applied).toBe(20_000);
    expect(summaryFacts(large).length).toBe(summaryFacts(small).length);
    expect(summaryFacts(large).length).toBeLessThan(200);
  });

  it('stays the same size however many distinct products are created, viewed and traced', () => {
    const products = (count: number): EventFact[] =>
      Array.from({ length: count }, (_, i) =>
        (['product.created', 'product.viewed', 'trace.recorded'] as const).map((kind, k) =>
          fact(kind, NOW - 1 + (3 * i + k) / 1e7, { productId: `p-${i}` }, { id: `${kind}-${i}` }),
        ),
      ).flat();
    const small = foldFacts(EMPTY_SUMMARY, products(1_000), dayAt(NOW));
    const large = foldFacts(EMPTY_SUMMARY, products(10_000), dayAt(NOW));
    expect(large.slots.length).toBe(small.slots.length);
    expect(summaryFacts(large).length).toBe(summaryFacts(small).length);
  });

  it.each(SEEDS.slice(0, 10))(
    'gives the same risk signals as the whole history when it is longer than the risk history (seed %i)',
    (seed) => {
      // 400 days of facts, folded while the clock walks through them: the oldest leave on the way.
      const facts = history(seed, 400, 400, 600).sort((a, b) => (a.occurredAt < b.occurredAt ? -1 : 1));
      const summary = foldInChunks(facts, 20, 200, 600);
      const now = dayAt(600);
      expect(detectRiskSignals({ companyId: 't-1', facts: summaryFacts(summary), now })).toEqual(
        detectRiskSignals({ companyId: 't-1', facts, now }),
      );
    },
  );

  it("lets a subject's risk facts go with the risk history: the summary does not keep them for life", () => {
    const invited = fact('connection.invited', 10, { connectionId: 'c-9' }, { id: 'invite' });
    const summary = foldFacts(EMPTY_SUMMARY, [invited], dayAt(11));
    expect(summary.slots.some((s) => s.key.startsWith('r|'))).toBe(true);
    const later = foldFacts(summary, [], dayAt(10 + 181));
    expect(later.slots.some((s) => s.key.startsWith('r|'))).toBe(false);
  });

  it('drops facts only a past window needed once the clock has moved past it', () => {
    const old = fact(
      'product.viewed',
      10,
      { productId: 'p-1' },
      { id: 'old-view', data: { viewerTenantId: 't-2' } },
    );
    const summary = foldFacts(EMPTY_SUMMARY, [old], dayAt(11));
    const later = foldFacts(summary, [], dayAt(400));
    expect(later.slots.map((s) => s.key.split('|')[0]).sort()).toEqual(['k', 'pv']);
    expect(summaryHolds(later, 'old-view')).toBe(true);
  });

  it('ignores unknown kinds and bad timestamps, as the rules do', () => {
    const summary = foldFacts(
      EMPTY_SUMMARY,
      [fact('no.such_kind', 1), { ...fact('product.created', 1), occurredAt: 'yesterday' }],
      dayAt(2),
    );
    expect(summary).toEqual(EMPTY_SUMMARY);
  });
});
