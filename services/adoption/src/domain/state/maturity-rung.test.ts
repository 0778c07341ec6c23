import { describe, expect, it } from '@jest/globals';
import type { EventFact } from '../facts/facts.js';
import { dayAt, fact, recomputeInput } from '../testing/fact-builders.js';
import { recompute } from './recompute.js';

const rungOf = (facts: EventFact[], profile: 'SUPPLIER' | 'SVC' = 'SUPPLIER') =>
  recompute(recomputeInput({ facts, profile, now: dayAt(60) })).state.currentMaturityRung;

const connected = [fact('connection.accepted', 1, { connectionId: 'c1' })];
const exchanging = [...connected, fact('product.viewed', 2, { productId: 'p1', connectionId: 'c1' })];
const traced = [...exchanging, fact('trace.recorded', 3, { productId: 'p1' })];

describe('the maturity rung', () => {
  it('starts at ONBOARDED', () => {
    expect(rungOf([])).toBe('ONBOARDED');
  });

  it('climbs one gate at a time: CONNECTED, EXCHANGING, TRACED', () => {
    expect(rungOf(connected)).toBe('CONNECTED');
    expect(rungOf(exchanging)).toBe('EXCHANGING');
    expect(rungOf(traced)).toBe('TRACED');
  });

  it('counts an answered data request as exchanging', () => {
    expect(rungOf([...connected, fact('data_request.answered', 2, { requestId: 'r1' })])).toBe('EXCHANGING');
  });

  it('does not skip a rung: tracing without exchanging stays CONNECTED', () => {
    expect(rungOf([...connected, fact('trace.recorded', 3)])).toBe('CONNECTED');
  });

  it('reaches STRATEGIC through a completed cascade for SVC and ten answered requests for SUPPLIER', () => {
    const cascade = [fact('cascade.completed', 9, { cascadeId: 'k1' })];
    expect(rungOf([...traced, ...cascade], 'SVC')).toBe('STRATEGIC');
    const answers = Array.from({ length: 10 }, (_, i) =>
      fact('data_request.answered', 10 + i, { requestId: `r${i}` }),
    );
    expect(rungOf([...traced, ...answers], 'SUPPLIER')).toBe('STRATEGIC');
  });

  it('keeps the rung when the path profile changes, e.g. a supplier moving to SVC on Enterprise', () => {
    const answers = Array.from({ length: 10 }, (_, i) =>
      fact('data_request.answered', 10 + i, { requestId: `r${i}` }),
    );
    expect(rungOf([...traced, ...answers], 'SUPPLIER')).toBe('STRATEGIC');
    expect(rungOf([...traced, ...answers], 'SVC')).toBe('STRATEGIC');
  });

  it('explains the rung and what the next one needs', () => {
    const { explanation } = recompute(recomputeInput({ facts: connected, now: dayAt(2) }));
    expect(explanation.rungReason).toBe(
      'CONNECTED because first_connection_made is done. EXCHANGING needs one of: first_data_exchange, first_data_request_answered.',
    );
  });
});
