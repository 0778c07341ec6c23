import { describe, expect, it } from '@jest/globals';
import type { RiskSignal } from '../risk/risk-signal.js';
import { DAY_MS } from '../time.js';
import type { BandInput } from './health-band.js';
import { healthBand } from './health-band.js';

const settled: BandInput = {
  score: 60,
  previousBand: null,
  rung: 'CONNECTED',
  tenureMs: 90 * DAY_MS,
  signals: [],
};
const band = (overrides: Partial<BandInput>) => healthBand({ ...settled, ...overrides }).band;

const escalated: RiskSignal = {
  id: 'x',
  kind: 'INTEGRATION_FAILING',
  severity: 'CRITICAL',
  resolution: 'ESCALATED',
  escalatedToHuman: true,
  subjectRef: { integrationId: 'i1' },
  detectedAt: '2025-01-01T00:00:00.000Z',
  resolvedAt: null,
};

describe('healthBand', () => {
  it('is ONBOARDING while there is no score', () => {
    expect(band({ score: null })).toBe('ONBOARDING');
  });

  it('is ONBOARDING for 30 days, and up to 45 while the tenant is still ONBOARDED', () => {
    expect(band({ tenureMs: 29 * DAY_MS, score: 10 })).toBe('ONBOARDING');
    expect(band({ tenureMs: 31 * DAY_MS, score: 10 })).toBe('AT_RISK');
    expect(band({ tenureMs: 40 * DAY_MS, score: 10, rung: 'ONBOARDED' })).toBe('ONBOARDING');
    expect(band({ tenureMs: 46 * DAY_MS, score: 10, rung: 'ONBOARDED' })).toBe('AT_RISK');
  });

  it('enters HEALTHY at 72 and AT_RISK below 45, DRIFTING in between', () => {
    expect(band({ score: 72 })).toBe('HEALTHY');
    expect(band({ score: 71 })).toBe('DRIFTING');
    expect(band({ score: 45 })).toBe('DRIFTING');
    expect(band({ score: 44 })).toBe('AT_RISK');
  });

  it('holds HEALTHY down to 65 and AT_RISK up to 51, so a wobbling score does not flap', () => {
    expect(band({ score: 66, previousBand: 'HEALTHY' })).toBe('HEALTHY');
    expect(band({ score: 64, previousBand: 'HEALTHY' })).toBe('DRIFTING');
    expect(band({ score: 40, previousBand: 'HEALTHY' })).toBe('AT_RISK');
    expect(band({ score: 51, previousBand: 'AT_RISK' })).toBe('AT_RISK');
    expect(band({ score: 52, previousBand: 'AT_RISK' })).toBe('DRIFTING');
    expect(band({ score: 80, previousBand: 'AT_RISK' })).toBe('HEALTHY');
    const wobble = [73, 70, 66, 71, 68].map((score) => band({ score, previousBand: 'HEALTHY' }));
    expect(wobble).toEqual(['HEALTHY', 'HEALTHY', 'HEALTHY', 'HEALTHY', 'HEALTHY']);
  });

  it('forces AT_RISK while a CRITICAL signal is escalated, even during onboarding', () => {
    expect(band({ score: 95, signals: [escalated] })).toBe('AT_RISK');
    expect(band({ score: 95, tenureMs: DAY_MS, signals: [escalated] })).toBe('AT_RISK');
    expect(band({ score: 95, signals: [{ ...escalated, resolution: 'RESOLVED' }] })).toBe('HEALTHY');
  });

  it('caps the band at DRIFTING while a milder signal is escalated, without lowering it further', () => {
    const mild: RiskSignal = { ...escalated, kind: 'INVITATION_UNACCEPTED', severity: 'HIGH' };
    expect(band({ score: 95, signals: [mild] })).toBe('DRIFTING');
    expect(band({ score: 30, signals: [mild] })).toBe('AT_RISK');
    expect(band({ score: 95, tenureMs: DAY_MS, signals: [mild] })).toBe('ONBOARDING');
  });

  it('keeps a tenant with no partner connection after onboarding out of HEALTHY', () => {
    expect(band({ score: 90, rung: 'ONBOARDED', tenureMs: 50 * DAY_MS })).toBe('DRIFTING');
  });
});
