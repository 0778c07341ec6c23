import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import {
  DOMAIN_EVENT_SCHEMA_PATH,
  DOMAIN_EVENT_TYPES,
  OUTBOUND_EVENT_TYPES,
  domainEventSubject,
  parseDomainEvent,
} from '../index.js';

const base = {
  id: '5b0c3c1e-8a59-4a5e-9a55-0f5d7e1f2a01',
  tenantId: '0e7f1f0c-3c8b-4b0e-8d53-6b8d2f7d9a10',
  occurredAt: '2026-11-21T08:00:00.000Z',
};

const examples = {
  'milestone.completed': { subject: { milestoneKey: 'first_product' }, data: { completionMode: 'MANUAL' } },
  'adoption.rung_changed': { subject: {}, data: { from: 'ONBOARDED', to: 'CONNECTED' } },
  'adoption.health_band_changed': {
    subject: {},
    data: { from: 'ONBOARDING', to: 'HEALTHY', healthScore: 71 },
  },
  'risk_signal.opened': {
    subject: { riskSignalId: 'r-1' },
    data: { kind: 'DATA_STALE', severity: 'MEDIUM' },
  },
  'risk_signal.escalated': {
    subject: { riskSignalId: 'r-1' },
    data: { kind: 'DATA_STALE', from: 'REO_PROMPTED', to: 'ESCALATED', escalatedToHuman: true },
  },
  'risk_signal.resolved': { subject: { riskSignalId: 'r-1' }, data: { kind: 'DATA_STALE' } },
  'usage.threshold_reached': {
    subject: { limitKey: 'MAX_CONNECTIONS' },
    data: { thresholdPercent: 80, current: 12, limit: 15, periodStart: '2026-11-01T00:00:00.000Z' },
  },
  'usage.threshold_cleared': {
    subject: { limitKey: 'MAX_CONNECTIONS' },
    data: { thresholdPercent: 80, current: 11, limit: 15, periodStart: '2026-11-01T00:00:00.000Z' },
  },
  'tier.changed': { subject: {}, data: { from: 'SUPPLIER_FREE', to: 'CORE' } },
  'member.joined': { subject: { userId: 'u-1' }, data: { role: 'MEMBER', email: 'a@example.com' } },
  'member.deactivated': { subject: { userId: 'u-1' }, data: {} },
  'member.role_changed': {
    subject: { userId: 'u-1' },
    data: { from: 'MEMBER', to: 'OWNER', email: 'a@example.com' },
  },
  'member.reactivated': { subject: { userId: 'u-1' }, data: { role: 'ADMIN', email: 'a@example.com' } },
  'oauth_client.created': { subject: { clientId: 'c-1' }, data: { name: 'ERP', scopes: ['products:read'] } },
  'oauth_client.secret_rotated': { subject: { clientId: 'c-1' }, data: {} },
  'oauth_client.deleted': { subject: { clientId: 'c-1' }, data: {} },
  'audit.entry_recorded': {
    subject: {},
    data: {
      actor: { type: 'user', id: 'u-1', email: 'owner@example.com' },
      action: 'oauth_client.created',
      target: { type: 'oauth_client', id: 'c-1' },
      outcome: 'SUCCESS',
      ip: '203.0.113.9',
      userAgent: 'curl/8',
      requestId: 'req-1',
    },
  },
} as const;

describe('the domain-event (outbound) contract', () => {
  it('lists in TypeScript exactly the types of the JSON Schema', () => {
    const schema = JSON.parse(readFileSync(DOMAIN_EVENT_SCHEMA_PATH, 'utf8')) as {
      properties: { type: { enum: string[] } };
    };
    expect([...DOMAIN_EVENT_TYPES].sort()).toEqual([...schema.properties.type.enum].sort());
    expect(Object.keys(examples).sort()).toEqual([...DOMAIN_EVENT_TYPES].sort());
  });

  it('offers every type but the audit entry to integrators', () => {
    expect(OUTBOUND_EVENT_TYPES).not.toContain('audit.entry_recorded');
    expect(OUTBOUND_EVENT_TYPES).toHaveLength(DOMAIN_EVENT_TYPES.length - 1);
  });

  it.each(Object.entries(examples))('accepts a well-formed %s', (type, body) => {
    const event = { ...base, type, ...body };
    expect(parseDomainEvent(event)).toEqual({ ok: true, event });
  });

  it.each([
    ['an unknown type', { ...base, type: 'tier.exploded', subject: {}, data: {} }],
    ['a missing subject ref', { ...base, type: 'oauth_client.created', subject: {}, data: {} }],
    [
      'a rung outside the ladder',
      { ...base, type: 'adoption.rung_changed', subject: {}, data: { from: 'X', to: 'Y' } },
    ],
    [
      'a threshold other than 80 or 100',
      {
        ...base,
        type: 'usage.threshold_reached',
        subject: { limitKey: 'MAX_CONNECTIONS' },
        data: { thresholdPercent: 90, current: 1, limit: 2, periodStart: base.occurredAt },
      },
    ],
    [
      'an audit entry with a field outside the list (a secret could hide there)',
      {
        ...base,
        ...examples['audit.entry_recorded'],
        type: 'audit.entry_recorded',
        data: { ...examples['audit.entry_recorded'].data, clientSecret: 'x' },
      },
    ],
    [
      'an audit actor with an extra field',
      {
        ...base,
        type: 'audit.entry_recorded',
        subject: {},
        data: { actor: { type: 'user', password: 'x' }, action: 'session.sign_in', outcome: 'FAILURE' },
      },
    ],
  ])('rejects %s', (_label, value) => {
    expect(parseDomainEvent(value).ok).toBe(false);
  });

  it('puts a tenant event of a type on domain.<tenantId>.<type>', () => {
    expect(domainEventSubject(base.tenantId, 'tier.changed')).toBe(`domain.${base.tenantId}.tier.changed`);
    expect(domainEventSubject(base.tenantId, 'tier.changed', 't1')).toBe(`t1.${base.tenantId}.tier.changed`);
  });
});
