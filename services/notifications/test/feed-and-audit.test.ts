import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { AuditEntryData, DomainEvent } from '@tap/contracts';
import { createDomainEventPublisher, eventErrors, type DomainEventPublisher } from '@tap/events';
import { waitFor } from '@tap/testkit';
import { notificationErrors } from '../src/domain/index.js';
import { domainEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const DAY_MS = 24 * 3_600_000;

function auditEvent(tenantId: string, data: AuditEntryData, occurredAt = new Date()): DomainEvent {
  return domainEvent(tenantId, 'audit.entry_recorded', {}, data, occurredAt);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('the events feed and the audit log', () => {
  let bed: TestBed;
  let publisher: DomainEventPublisher;
  const tenant = randomUUID();
  const other = randomUUID();
  const owner = { type: 'user' as const, id: randomUUID(), email: 'owner@example.com' };
  const clientId = randomUUID();
  let published: DomainEvent[] = [];

  beforeAll(async () => {
    bed = await openTestBed('feed-audit');
    publisher = createDomainEventPublisher(bed.js, { subjectPrefix: bed.config.domain.subjectPrefix });
    published = [
      domainEvent(tenant, 'tier.changed', {}, { from: 'SUPPLIER_FREE', to: 'CORE' }),
      domainEvent(tenant, 'member.joined', { userId: randomUUID() }, { role: 'MEMBER' }),
      domainEvent(tenant, 'oauth_client.deleted', { clientId }, {}),
      domainEvent(other, 'tier.changed', {}, { from: 'CORE', to: 'SUPPLIER_FREE' }),
      auditEvent(tenant, {
        actor: owner,
        action: 'oauth_client.created',
        target: { type: 'oauth_client', id: clientId },
        outcome: 'SUCCESS',
        ip: '203.0.113.9',
        userAgent: '=HYPERLINK("x")',
        requestId: 'req-1',
      }),
      auditEvent(tenant, {
        actor: owner,
        action: 'oauth_client.secret_rotated',
        target: { type: 'oauth_client', id: clientId },
        outcome: 'SUCCESS',
      }),
      auditEvent(tenant, {
        actor: { type: 'client', id: clientId },
        action: 'oauth_client.deleted',
        target: { type: 'oauth_client', id: clientId },
        outcome: 'SUCCESS',
      }),
      auditEvent(tenant, {
        actor: { type: 'system' },
        action: 'session.sign_in',
        outcome: 'FAILURE',
        reason: 'INVALID_CREDENTIALS',
      }),
      auditEvent(other, {
        actor: { type: 'operator' },
        action: 'tier.changed',
        target: { type: 'tenant', id: other },
        outcome: 'SUCCESS',
        change: { from: 'CORE', to: 'SUPPLIER_FREE' },
      }),
    ];
    for (const e of published) await publisher.publish(e);
    await waitFor('every event applied', async () => {
      const audit = await bed.db.collection('audit_entries').countDocuments();
      const feed = await bed.db.collection('feed_events').countDocuments();
      return audit === 5 && feed === 4;
    });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it('serves a tenant its outbound events in order, paged by an opaque cursor', async () => {
    const first = await bed.app.ops.feed({ tenantId: tenant, limit: 2 });
    expect(first.events).toEqual(published.slice(0, 2));
    const rest = await bed.app.ops.feed({ tenantId: tenant, after: first.nextCursor ?? '' });
    expect(rest.events).toEqual(published.slice(2, 3));
    const none = await bed.app.ops.feed({ tenantId: tenant, after: rest.nextCursor ?? '' });
    expect(none).toEqual({ events: [], cursors: [], nextCursor: rest.nextCursor });
  });

  it('gives each event the cursor just after it, so a stream resumes after any event it sent', async () => {
    const all = await bed.app.ops.feed({ tenantId: tenant });
    expect(all.cursors).toHaveLength(all.events.length);
    expect(all.cursors.at(-1)).toBe(all.nextCursor);
    const resumed = await bed.app.ops.feed({ tenantId: tenant, after: all.cursors[0] ?? '' });
    expect(resumed.events).toEqual(all.events.slice(1));
  });

  it('filters the feed by type and shows nothing of another tenant', async () => {
    const tiers = await bed.app.ops.feed({ tenantId: tenant, types: ['tier.changed'] });
    expect(tiers.events).toEqual([published[0]]);
    const theirs = await bed.app.ops.feed({ tenantId: other });
    expect(theirs.events).toEqual([published[3]]);
  });

  it.each([['garbage'], ['!!'], [Buffer.from('c1:nothex').toString('base64url')]])(
    'refuses the malformed cursor %j',
    async (after) => {
      const error = await rejection(bed.app.ops.feed({ tenantId: tenant, after }));
      expect(notificationErrors.is(error, 'CURSOR_INVALID')).toBe(true);
    },
  );

  it('refuses an unknown type filter', async () => {
    const error = await rejection(bed.app.ops.feed({ tenantId: tenant, types: ['nope'] }));
    expect(notificationErrors.is(error, 'EVENT_TYPES_INVALID')).toBe(true);
  });

  it("lists the run's client creation, rotation and deletion, newest first, and nothing of another tenant", async () => {
    const page = await bed.app.ops.audit({ tenantId: tenant });
    expect(page.entries.map((e) => e.action)).toEqual([
      'session.sign_in',
      'oauth_client.deleted',
      'oauth_client.secret_rotated',
      'oauth_client.created',
    ]);
    expect(page.entries.every((e) => e.tenantId === tenant)).toBe(true);
    expect(page.entries[3]).toMatchObject({
      actor: owner,
      ip: '203.0.113.9',
      requestId: 'req-1',
      outcome: 'SUCCESS',
    });
  });

  it('filters by action and actor, and pages with a cursor', async () => {
    const byAction = await bed.app.ops.audit({ tenantId: tenant, action: 'oauth_client.created' });
    expect(byAction.entries).toHaveLength(1);
    const byActor = await bed.app.ops.audit({ tenantId: tenant, actorId: owner.id });
    expect(byActor.entries.map((e) => e.action)).toEqual([
      'oauth_client.secret_rotated',
      'oauth_client.created',
    ]);
    const first = await bed.app.ops.audit({ tenantId: tenant, limit: 3 });
    const second = await bed.app.ops.audit({ tenantId: tenant, limit: 3, cursor: first.nextCursor ?? '' });
    expect([...first.entries, ...second.entries].map((e) => e.action)).toHaveLength(4);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a range over 400 days, a reversed range and a malformed cursor', async () => {
    const now = Date.now();
    const tooLong = await rejection(
      bed.app.ops.audit({ tenantId: tenant, from: new Date(now - 401 * DAY_MS), to: new Date(now) }),
    );
    expect(notificationErrors.is(tooLong, 'AUDIT_RANGE_TOO_LONG')).toBe(true);
    const reversed = await rejection(
      bed.app.ops.audit({ tenantId: tenant, from: new Date(now), to: new Date(now - DAY_MS) }),
    );
    expect(notificationErrors.is(reversed, 'AUDIT_RANGE_INVALID')).toBe(true);
    const cursor = await rejection(bed.app.ops.audit({ tenantId: tenant, cursor: 'x' }));
    expect(notificationErrors.is(cursor, 'CURSOR_INVALID')).toBe(true);
  });

  it('exports CSV with a header, one row per entry, formulas quoted out', async () => {
    const csv = await bed.app.ops.auditCsv({ tenantId: tenant });
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'occurredAt,id,actorType,actorId,actorEmail,action,targetType,targetId,outcome,reason,ip,userAgent,requestId,changeFrom,changeTo',
    );
    expect(lines).toHaveLength(5);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('keeps what a change moved, in the entry and in its CSV row', async () => {
    const page = await bed.app.ops.audit({ tenantId: other });
    expect(page.entries).toHaveLength(1);
    expect(page.entries[0]).toMatchObject({
      action: 'tier.changed',
      change: { from: 'CORE', to: 'SUPPLIER_FREE' },
    });
    const csv = await bed.app.ops.auditCsv({ tenantId: other });
    expect(csv.trimEnd().split('\r\n')[1]).toMatch(/,CORE,SUPPLIER_FREE$/);
  });

  it('refuses a change that is not a pair of codes', async () => {
    const freeText = auditEvent(tenant, {
      actor: owner,
      action: 'member.role_changed',
      outcome: 'SUCCESS',
      change: { from: 'member', to: 'the owner, password hunter2' },
    });
    expect(eventErrors.is(await rejection(publisher.publish(freeText)), 'EVENT_INVALID')).toBe(true);
  });

  it('refuses an audit event that carries anything outside the listed fields', async () => {
    const leaky = auditEvent(tenant, { actor: owner, action: 'session.sign_in', outcome: 'SUCCESS' });
    const error = await rejection(
      publisher.publish({ ...leaky, data: { ...leaky.data, password: 'hunter2' } }),
    );
    expect(eventErrors.is(error, 'EVENT_INVALID')).toBe(true);
  });

  it('removes entries past the retention and keeps the rest', async () => {
    const old = auditEvent(
      tenant,
      { actor: { type: 'system' }, action: 'session.logout', outcome: 'SUCCESS' },
      new Date(Date.now() - 401 * DAY_MS),
    );
    await bed.app.ops.apply(old);
    expect(await bed.db.collection('audit_entries').countDocuments({ entryId: old.id })).toBe(1);
    const removed = await bed.app.ops.cleanup();
    expect(removed.audit).toBe(1);
    expect(await bed.db.collection('audit_entries').countDocuments({ tenantId: tenant })).toBe(4);
  });

  it('wrote no secret, token or password, nor any part of one, into any entry', async () => {
    const entries = await bed.db.collection('audit_entries').find().toArray();
    expect(entries.length).toBeGreaterThan(0);
    const text = JSON.stringify(entries);
    for (const pattern of [
      /whsec_/i,
      /secret"?\s*:/i,
      /password/i,
      /token"?\s*:/i,
      /eyJ[A-Za-z0-9_-]{10,}/,
      /hunter2/,
      /Bearer /i,
    ])
      expect(text).not.toMatch(pattern);
  });
});
