import { describe, expect, it } from '@jest/globals';
import type { EventFact } from '../facts/facts.js';
import { dayAt, fact, isoAt } from '../testing/fact-builders.js';
import { detectRiskSignals } from './detect-risk-signals.js';
import { riskSignalId } from './signal-id.js';

const detect = (facts: EventFact[], days: number) =>
  detectRiskSignals({ companyId: 't-1', facts, now: dayAt(days) });

describe('drift-watch detection', () => {
  it('looks back 180 days: a subject whose risk facts are all older leaves the ledger, resolved or not', () => {
    const facts = [
      fact('connection.invited', 0, { connectionId: 'left open' }),
      fact('connection.invited', 0, { connectionId: 'resolved' }),
      fact('connection.accepted', 20, { connectionId: 'resolved' }),
      fact('connection.invited', 100, { connectionId: 'recent' }),
    ];
    const kinds = (days: number) => detect(facts, days).map((s) => s.subjectRef['connectionId']);
    // Day 0's facts count until the end of day 180 (day 0 is the builders' midnight).
    expect(kinds(180.99).sort()).toEqual(['left open', 'recent', 'resolved']);
    // From then on only the subject with later activity: the others' episodes are history.
    expect(kinds(181)).toEqual(['recent']);
    expect(kinds(281)).toEqual([]);
  });

  it('finds nothing in an empty history', () => {
    expect(detect([], 100)).toEqual([]);
  });

  it('flags an invitation still unaccepted after 3 days, keyed by connection', () => {
    const facts = [fact('connection.invited', 0, { connectionId: 'c1' })];
    expect(detect(facts, 2.9)).toEqual([]);
    expect(detect(facts, 3)).toEqual([
      {
        id: riskSignalId('t-1', 'INVITATION_UNACCEPTED', { connectionId: 'c1' }),
        kind: 'INVITATION_UNACCEPTED',
        severity: 'LOW',
        resolution: 'OPEN',
        escalatedToHuman: false,
        subjectRef: { connectionId: 'c1' },
        detectedAt: isoAt(3),
        resolvedAt: null,
      },
    ]);
  });

  it('resolves the invitation signal when the connection is accepted, from whatever rung it reached', () => {
    const facts = [
      fact('connection.invited', 0, { connectionId: 'c1' }),
      fact('connection.accepted', 20, { connectionId: 'c1' }),
    ];
    expect(detect(facts, 30)).toMatchObject([
      { resolution: 'RESOLVED', resolvedAt: isoAt(20), escalatedToHuman: true },
    ]);
  });

  it('raises nothing when the condition clears within the grace period', () => {
    expect(
      detect(
        [
          fact('connection.invited', 0, { connectionId: 'c1' }),
          fact('connection.accepted', 3, { connectionId: 'c1' }),
        ],
        30,
      ),
    ).toEqual([]);
  });

  it('flags a policy nobody viewed within 7 days, and clears on the first view', () => {
    const published = fact('policy.published', 0, { policyId: 'pol-1' });
    expect(detect([published], 8)).toMatchObject([
      { kind: 'POLICY_UNVIEWED', subjectRef: { policyId: 'pol-1' }, detectedAt: isoAt(7) },
    ]);
    expect(detect([published, fact('policy.viewed', 9, { policyId: 'pol-1' })], 10)).toMatchObject([
      { resolution: 'RESOLVED' },
    ]);
  });

  it('flags a failing integration at the second failure in a row, or 24 hours after a lone failure', () => {
    const first = fact('integration.failed', 0, { integrationId: 'i1' });
    expect(detect([first], 0.5)).toEqual([]);
    expect(detect([first, fact('integration.failed', 0.25, { integrationId: 'i1' })], 0.5)).toMatchObject([
      { kind: 'INTEGRATION_FAILING', detectedAt: isoAt(0.25) },
    ]);
    expect(detect([first], 1)).toMatchObject([{ detectedAt: isoAt(1) }]);
    expect(detect([first, fact('integration.succeeded', 0.5, { integrationId: 'i1' })], 5)).toEqual([]);
  });

  it('flags stale data 30 days after the last update, tenant-wide', () => {
    const facts = [
      fact('product.created', 0, { productId: 'p1' }),
      fact('product.updated', 10, { productId: 'p1' }),
    ];
    expect(detect(facts, 39)).toEqual([]);
    expect(detect(facts, 41)).toMatchObject([
      { kind: 'DATA_STALE', subjectRef: { companyId: 't-1' }, detectedAt: isoAt(40) },
    ]);
    expect(detect([...facts, fact('import.completed', 45)], 50)).toMatchObject([
      { resolution: 'RESOLVED', resolvedAt: isoAt(45) },
    ]);
  });

  it('flags a cascade with no activity for 7 days; activity restarts the clock and completion ends it', () => {
    const started = fact('cascade.started', 0, { cascadeId: 'k1' });
    const activity = fact('data_request.answered', 5, { cascadeId: 'k1', requestId: 'r9' });
    expect(detect([started, activity], 11)).toEqual([]);
    expect(detect([started, activity], 13)).toMatchObject([
      { kind: 'CASCADE_STALLED', detectedAt: isoAt(12) },
    ]);
    expect(detect([started, fact('cascade.completed', 20, { cascadeId: 'k1' })], 25)).toMatchObject([
      { kind: 'CASCADE_STALLED', resolution: 'RESOLVED', detectedAt: isoAt(7), resolvedAt: isoAt(20) },
    ]);
  });

  it('flags a data request unanswered after 7 days', () => {
    const sent = fact('data_request.sent', 0, { requestId: 'r1' });
    expect(detect([sent], 7.5)).toMatchObject([
      { kind: 'REQUEST_UNANSWERED', subjectRef: { requestId: 'r1' }, resolution: 'OPEN' },
    ]);
    expect(detect([sent], 15)).toMatchObject([
      { resolution: 'ESCALATED', escalatedToHuman: true, severity: 'CRITICAL' },
    ]);
  });

  it('reopens the same signal, same id, when a cleared condition comes back', () => {
    const facts = [
      fact('integration.failed', 0, { integrationId: 'i1' }),
      fact('integration.failed', 0.1, { integrationId: 'i1' }),
      fact('integration.succeeded', 1, { integrationId: 'i1' }),
      fact('integration.failed', 5, { integrationId: 'i1' }),
      fact('integration.failed', 5.1, { integrationId: 'i1' }),
    ];
    const [signal] = detect(facts, 5.12);
    expect(signal).toMatchObject({ resolution: 'OPEN', detectedAt: isoAt(5.1), resolvedAt: null });
    expect(signal?.id).toBe(riskSignalId('t-1', 'INTEGRATION_FAILING', { integrationId: 'i1' }));
  });

  it('is idempotent: the same facts, shuffled and duplicated, give the same signals', () => {
    const facts = [
      fact('connection.invited', 0, { connectionId: 'c1' }),
      fact('data_request.sent', 1, { requestId: 'r1' }),
      fact('policy.published', 2, { policyId: 'p1' }),
      fact('product.created', 0),
    ];
    const once = detect(facts, 60);
    expect(once).toHaveLength(4);
    expect(detect([...facts].reverse().concat(facts), 60)).toEqual(once);
  });

  it('ignores facts dated after now', () => {
    expect(detect([fact('connection.invited', 10, { connectionId: 'c1' })], 5)).toEqual([]);
  });
});
