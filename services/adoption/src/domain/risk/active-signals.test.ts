import { describe, expect, it } from '@jest/globals';
import { isoAt } from '../testing/fact-builders.js';
import { activeSignals, signalTransitions } from './active-signals.js';
import type { RiskSignal } from './risk-signal.js';

const signal = (id: string, day: number, resolution: RiskSignal['resolution'] = 'OPEN'): RiskSignal => ({
  id,
  kind: 'REQUEST_UNANSWERED',
  severity: 'MEDIUM',
  resolution,
  escalatedToHuman: false,
  subjectRef: { requestId: id },
  detectedAt: isoAt(day),
  resolvedAt: resolution === 'RESOLVED' ? isoAt(day + 1) : null,
});

describe('activeSignals', () => {
  const signals = [signal('a', 1), signal('b', 3), signal('c', 2, 'RESOLVED'), signal('d', 3, 'ESCALATED')];

  it('lists only unresolved signals, most recent first, ties by id', () => {
    expect(activeSignals(signals).map((s) => s.id)).toEqual(['b', 'd', 'a']);
  });

  it('caps the list at the limit, clamped to 1..200', () => {
    expect(activeSignals(signals, 2).map((s) => s.id)).toEqual(['b', 'd']);
    expect(activeSignals(signals, 0)).toHaveLength(1);
    expect(activeSignals(signals, 10_000)).toHaveLength(3);
  });
});

describe('signalTransitions', () => {
  it('reports new signals and moves on the ladder, and nothing for unchanged ones', () => {
    const before = [signal('a', 1), signal('b', 1, 'AUTO_NUDGED')];
    const after = [signal('a', 1), signal('b', 1, 'REO_PROMPTED'), signal('c', 2)];
    expect(signalTransitions(before, after)).toEqual([
      {
        signalId: 'b',
        kind: 'REQUEST_UNANSWERED',
        subjectRef: { requestId: 'b' },
        from: 'AUTO_NUDGED',
        to: 'REO_PROMPTED',
      },
      { signalId: 'c', kind: 'REQUEST_UNANSWERED', subjectRef: { requestId: 'c' }, from: null, to: 'OPEN' },
    ]);
  });
});
