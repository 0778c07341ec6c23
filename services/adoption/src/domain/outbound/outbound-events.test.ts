import { describe, expect, it } from '@jest/globals';
import { parseDomainEvent } from '@tap/contracts';
import {
  auditEvent,
  boundedEvents,
  MAX_PENDING_EVENTS,
  writeEvents,
  type OutboundEvent,
  type WriteChange,
} from './outbound-events.js';

const TENANT = '6f1d1c62-27b4-4a0e-8d1a-4c1f0d2e9a10';
const AT = new Date('2025-06-02T08:00:00.000Z');
const change = (overrides: Partial<WriteChange> = {}): WriteChange => ({
  tenantId: TENANT,
  previous: { rung: 'ONBOARDED', band: 'ONBOARDING' },
  next: { rung: 'ONBOARDED', band: 'ONBOARDING', healthScore: null },
  transitions: [],
  fence: '3:4',
  at: AT,
  ...overrides,
});
const signal = { signalId: 's-1', kind: 'DATA_STALE' as const, subjectRef: { companyId: TENANT } };
const AUDIT_ID = '0b0c7a2e-0d0e-4a5b-9c1d-2e3f4a5b6c7d';
type AuditInput = Parameters<typeof auditEvent>[0];
/** An audit entry of `action` by `actor` on `target`, at AT in TENANT. */
const auditOf = (actor: AuditInput['actor'], action: AuditInput['action'], target: AuditInput['target']) =>
  auditEvent({ id: AUDIT_ID, tenantId: TENANT, actor, action, target, at: AT });

describe('the outbound events of a write', () => {
  it('are none when neither the rung, the band nor a signal moved', () => {
    expect(writeEvents(change())).toEqual([]);
  });

  it('name the rung and the band each once, from the stored projection to the new one', () => {
    const events = writeEvents(change({ next: { rung: 'CONNECTED', band: 'HEALTHY', healthScore: 81 } }));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['adoption.rung_changed', { from: 'ONBOARDED', to: 'CONNECTED' }],
      ['adoption.health_band_changed', { from: 'ONBOARDING', to: 'HEALTHY', healthScore: 81 }],
    ]);
  });

  it('say nothing of a rung whose previous value is unknown', () => {
    const events = writeEvents(
      change({
        previous: { rung: null, band: 'ONBOARDING' },
        next: { rung: 'TRACED', band: 'ONBOARDING', healthScore: 1 },
      }),
    );
    expect(events).toEqual([]);
  });

  it('open, escalate and resolve risk signals as their ladder moves', () => {
    const events = writeEvents(
      change({
        transitions: [
          { ...signal, from: null, to: 'OPEN' },
          { ...signal, signalId: 's-2', from: 'REO_PROMPTED', to: 'ESCALATED' },
          { ...signal, signalId: 's-3', from: 'AUTO_NUDGED', to: 'RESOLVED' },
          { ...signal, signalId: 's-4', from: 'RESOLVED', to: 'OPEN' },
          { ...signal, signalId: 's-5', from: null, to: 'RESOLVED' },
        ],
      }),
    );
    expect(events.map((e) => [e.type, e.subject['riskSignalId']])).toEqual([
      ['risk_signal.opened', 's-1'],
      ['risk_signal.escalated', 's-2'],
      ['risk_signal.resolved', 's-3'],
      ['risk_signal.opened', 's-4'],
    ]);
    expect(events[1]?.data).toEqual({
      kind: 'DATA_STALE',
      from: 'REO_PROMPTED',
      to: 'ESCALATED',
      escalatedToHuman: true,
    });
  });

  it('have the same ids for the same change and other ids for another fence', () => {
    const moved = change({ next: { rung: 'CONNECTED', band: 'ONBOARDING', healthScore: null } });
    expect(writeEvents(moved).map((e) => e.id)).toEqual(writeEvents(moved).map((e) => e.id));
    expect(writeEvents({ ...moved, fence: '4:5' })[0]?.id).not.toBe(writeEvents(moved)[0]?.id);
    expect(writeEvents(moved)[0]?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});

describe('the domain-event contract', () => {
  it('accepts every kind adoption writes', () => {
    const events = writeEvents(
      change({
        next: { rung: 'CONNECTED', band: 'AT_RISK', healthScore: 40 },
        transitions: [
          { ...signal, signalId: 's-1', from: null, to: 'OPEN' },
          { ...signal, signalId: 's-2', from: 'OPEN', to: 'AUTO_NUDGED' },
          { ...signal, signalId: 's-3', from: 'OPEN', to: 'RESOLVED' },
        ],
      }),
    );
    const audit = auditOf({ type: 'client', id: 'client-1' }, 'success_plan.renewed', {
      type: 'success_plan',
      id: 'plan-1',
    });
    for (const event of [...events, audit]) expect(parseDomainEvent(event)).toEqual({ ok: true, event });
    expect(new Set([...events, audit].map((e) => e.type)).size).toBe(6);
  });
});

describe('an audit entry', () => {
  it('carries the actor, the action, the target and the outcome, and nothing else', () => {
    const entry = auditOf({ type: 'user', id: 'u-1' }, 'milestone.completed_manually', {
      type: 'milestone',
      id: 'kickoff_call_held',
    });
    expect(entry).toEqual({
      id: AUDIT_ID,
      type: 'audit.entry_recorded',
      tenantId: TENANT,
      occurredAt: AT.toISOString(),
      subject: {},
      data: {
        actor: { type: 'user', id: 'u-1' },
        action: 'milestone.completed_manually',
        target: { type: 'milestone', id: 'kickoff_call_held' },
        outcome: 'SUCCESS',
      },
    });
  });
});

describe('the outbox bound', () => {
  const some = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `e-${i}` }) as OutboundEvent);

  it('keeps every new event while there is room', () => {
    expect(boundedEvents(MAX_PENDING_EVENTS - 2, some(2))).toEqual({ kept: some(2), dropped: 0 });
  });

  it('drops what does not fit, first events first kept', () => {
    expect(boundedEvents(MAX_PENDING_EVENTS - 1, some(3))).toEqual({ kept: some(1), dropped: 2 });
    expect(boundedEvents(MAX_PENDING_EVENTS + 5, some(1))).toEqual({ kept: [], dropped: 1 });
  });
});
