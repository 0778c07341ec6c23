import { describe, expect, it } from '@jest/globals';
import { dayAt, isoAt } from '../testing/fact-builders.js';
import { HOUR_MS } from '../time.js';
import { advance, resolve } from './escalation.js';
import type { RiskSignal } from './risk-signal.js';

const open: RiskSignal = {
  id: 'sig-1',
  kind: 'REQUEST_UNANSWERED',
  severity: 'MEDIUM',
  resolution: 'OPEN',
  escalatedToHuman: false,
  subjectRef: { requestId: 'r1' },
  detectedAt: isoAt(0),
  resolvedAt: null,
};

describe('advance', () => {
  it('climbs the ladder on the documented delays: nudge after 1 day, REO after 3, escalation after 7', () => {
    expect(advance(open, new Date(dayAt(1).getTime() - 1)).resolution).toBe('OPEN');
    expect(advance(open, dayAt(1))).toMatchObject({ resolution: 'AUTO_NUDGED', severity: 'MEDIUM' });
    expect(advance(open, dayAt(3))).toMatchObject({
      resolution: 'REO_PROMPTED',
      severity: 'HIGH',
      escalatedToHuman: false,
    });
    expect(advance(open, dayAt(7))).toMatchObject({
      resolution: 'ESCALATED',
      severity: 'CRITICAL',
      escalatedToHuman: true,
    });
  });

  it('jumps straight to the rung the elapsed time warrants and is idempotent', () => {
    const late = advance(open, dayAt(30));
    expect(late.resolution).toBe('ESCALATED');
    expect(advance(late, dayAt(30))).toBe(late);
  });

  it('never moves a signal back down the ladder', () => {
    const escalated = advance(open, dayAt(8));
    expect(advance(escalated, dayAt(2))).toBe(escalated);
  });

  it('escalates integration failures within hours', () => {
    const failing: RiskSignal = { ...open, kind: 'INTEGRATION_FAILING', subjectRef: { integrationId: 'i1' } };
    expect(advance(failing, new Date(dayAt(0).getTime() + HOUR_MS)).resolution).toBe('AUTO_NUDGED');
    expect(advance(failing, dayAt(3)).resolution).toBe('ESCALATED');
  });

  it('caps severity at CRITICAL and grows a LOW kind only to HIGH', () => {
    const invitation: RiskSignal = { ...open, kind: 'INVITATION_UNACCEPTED', severity: 'LOW' };
    expect(advance(invitation, dayAt(14)).severity).toBe('HIGH');
  });
});

describe('resolve', () => {
  it('resolves from any rung with resolvedAt, keeping whether a human was involved', () => {
    expect(resolve(open, dayAt(0.5))).toMatchObject({
      resolution: 'RESOLVED',
      resolvedAt: isoAt(0.5),
      escalatedToHuman: false,
    });
    expect(resolve(open, dayAt(10))).toMatchObject({
      resolution: 'RESOLVED',
      escalatedToHuman: true,
      severity: 'CRITICAL',
    });
  });

  it('leaves a resolved signal as it is', () => {
    const resolved = resolve(open, dayAt(2));
    expect(resolve(resolved, dayAt(9))).toBe(resolved);
    expect(advance(resolved, dayAt(9))).toBe(resolved);
  });
});
