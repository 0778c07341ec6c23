import { describe, expect, it } from '@jest/globals';
import { ALL_CAPABILITIES, dayAt, fact, recomputeInput } from '../testing/fact-builders.js';
import { WORKED_EXAMPLE } from '../testing/worked-example.js';
import { recompute } from './recompute.js';

describe('recompute', () => {
  it('gives a tenant with no facts a null score, ONBOARDING, rung ONBOARDED and the full milestone list', () => {
    const { state, explanation, signals } = recompute(
      recomputeInput({ companyId: 't-9', version: 3, now: dayAt(5) }),
    );
    expect(state).toMatchObject({
      companyId: 't-9',
      currentMaturityRung: 'ONBOARDED',
      pathProfile: 'SUPPLIER',
      healthScore: null,
      healthBand: 'ONBOARDING',
      networkDensity: 0,
      lastRecomputedAt: '2025-01-06T00:00:00.000Z',
      version: 3,
    });
    expect(state.milestones).toHaveLength(28);
    expect(explanation.components).toEqual([]);
    expect(signals).toEqual([]);
  });

  it('computes a score from the first fact on', () => {
    const { state } = recompute(
      recomputeInput({ facts: [fact('company.profile_completed', 0)], now: dayAt(1) }),
    );
    expect(state.healthScore).toEqual(expect.any(Number));
    expect(state.healthBand).toBe('ONBOARDING');
  });

  it('echoes the version it is given: the store, not recompute, increments it', () => {
    expect(recompute({ ...WORKED_EXAMPLE, version: 7 }).state.version).toBe(7);
  });

  it('gives the same aggregate for the same facts delivered in another order, or twice', () => {
    const once = recompute(WORKED_EXAMPLE);
    const shuffled = [...WORKED_EXAMPLE.facts].reverse();
    const twice = recompute({ ...WORKED_EXAMPLE, facts: [...shuffled, ...WORKED_EXAMPLE.facts] });
    expect(JSON.stringify(twice)).toBe(JSON.stringify(once));
  });

  it('ignores unknown event kinds and facts with unreadable times', () => {
    const noise = [
      fact('product.teleported', 3),
      { ...fact('product.created', 3), id: 'bad-time', occurredAt: 'Tuesday' },
    ];
    const withNoise = recompute({ ...WORKED_EXAMPLE, facts: [...WORKED_EXAMPLE.facts, ...noise] });
    expect(withNoise).toEqual(recompute(WORKED_EXAMPLE));
  });

  it('ignores unknown capability strings', () => {
    const extra = recompute({
      ...WORKED_EXAMPLE,
      capabilities: [...WORKED_EXAMPLE.capabilities, 'TIME_TRAVEL'],
    });
    expect(extra).toEqual(recompute(WORKED_EXAMPLE));
  });

  it('reproduces the worked example of docs/adoption-model.md', () => {
    const { state, explanation, signals } = recompute(WORKED_EXAMPLE);
    expect(state).toMatchObject({
      currentMaturityRung: 'EXCHANGING',
      healthScore: 47,
      healthBand: 'DRIFTING',
      networkDensity: 1,
      version: 41,
    });
    expect(explanation.components.map((c) => [c.code, c.value, c.points])).toEqual([
      ['JOURNEY_PROGRESS', 47, 14.1],
      ['ENGAGEMENT', 46, 11.5],
      ['NETWORK', 42, 8.4],
      ['DATA_FRESHNESS', 34, 5.1],
      ['RESPONSIVENESS', 80, 8],
    ]);
    expect(explanation.components[0]?.reason).toBe(
      '11 of 19 milestones open to you are done (15 of 32 chapter-weighted points).',
    );
    expect(explanation.bandReason).toBe('Score 47 is between the AT_RISK and HEALTHY thresholds.');
    expect(signals.map((s) => [s.kind, s.resolution, s.severity])).toEqual([
      ['DATA_STALE', 'RESOLVED', 'HIGH'],
      ['INVITATION_UNACCEPTED', 'ESCALATED', 'HIGH'],
    ]);
  });

  it('names the events that moved each component', () => {
    const { explanation } = recompute(WORKED_EXAMPLE);
    const network = explanation.components.find((c) => c.code === 'NETWORK');
    expect(network?.eventIds).toEqual([
      'data_request.answered@60:r1:c1',
      'data_request.sent@58:r1:c1',
      'product.viewed@50:p1',
    ]);
    expect(explanation.summary).toMatch(
      /^Health 47 ≈ Journey progress 14.1 \(47\/100 at 30%\) \+ Engagement 11.5/,
    );
  });

  it('keeps the milestone statuses apart from the tier except for upgrade contexts and health denominators', () => {
    const free = recompute(WORKED_EXAMPLE);
    const top = recompute({ ...WORKED_EXAMPLE, capabilities: ALL_CAPABILITIES });
    expect(top.state.milestones.map((m) => m.status)).toEqual(free.state.milestones.map((m) => m.status));
    expect(top.state.healthScore).not.toBe(free.state.healthScore);
  });
});
