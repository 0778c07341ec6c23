import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { DomainEventPublisher } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { DEFAULT_OUTBOX_GRACE_MS } from '../src/config.js';
import type { OutboundEvent } from '../src/domain/index.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { OUTBOX_DUE_COLLECTION } from '../src/store/outbox-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { PARTNER_1, productEvent } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date('2025-06-02T08:00:00.000Z');
const CONNECT_PLAN = {
  title: 'Get connected',
  targetDate: '2025-08-01T00:00:00Z',
  objectives: [{ label: 'Connect', milestoneKeys: ['first_connection_made'] }],
};

describe('adoption’s outbound events on real NATS and FerretDB', () => {
  let bed: TestBed;
  // Set by a test: every outbound publish fails, as when the process dies before it publishes.
  let domainDown = false;
  // Set by a test: the next outbound publish reaches the stream but its acknowledgement is lost.
  let loseNextAck = false;

  beforeAll(async () => {
    bed = await openTestBed('outbound', undefined, {
      publishDomain: async (event: OutboundEvent, publisher: DomainEventPublisher) => {
        if (domainDown) throw new Error('the process died before its publish');
        const result = await publisher.publish(event);
        if (loseNextAck) {
          loseNextAck = false;
          throw new Error('the acknowledgement of the publish was lost');
        }
        return result;
      },
    });
    await bed.startConsumer();
  });
  afterAll(async () => {
    await bed?.close();
  });

  const eventsOf = async (tenantId: string, type?: string) =>
    (await bed.domainEvents()).filter(
      (e) => e.tenantId === tenantId && (type === undefined || e.type === type),
    );
  const load = (tenantId: string) => aggregatesRepository(bed.db, createTenantWriteLock()).load(tenantId);
  const reminders = (tenantId: string) =>
    bed.db.collection(OUTBOX_DUE_COLLECTION).countDocuments({ tenantId });

  async function publish(tenantId: string, ...events: ReturnType<typeof productEvent>[]): Promise<void> {
    for (const event of events) await bed.publisher.publish(event);
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
  }
  const profile = (tenantId: string, at: Date) => productEvent(tenantId, 'company.profile_completed', {}, at);
  const connection = (tenantId: string, at: Date) => [
    productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, at, { partnerTenantId: PARTNER_1 }),
    productEvent(tenantId, 'connection.accepted', { connectionId: 'c-1' }, new Date(at.getTime() + HOUR), {
      partnerTenantId: PARTNER_1,
    }),
  ];

  it('publishes one adoption.rung_changed for a rung change and one health_band_changed for a band change', async () => {
    const tenantId = randomUUID();
    bed.clock.set(T0);
    await publish(tenantId, profile(tenantId, T0));
    expect(await eventsOf(tenantId, 'adoption.rung_changed')).toEqual([]);

    await publish(tenantId, ...connection(tenantId, new Date(T0.getTime() + DAY)));
    const rungs = await eventsOf(tenantId, 'adoption.rung_changed');
    expect(rungs).toEqual([
      expect.objectContaining({
        type: 'adoption.rung_changed',
        data: { from: 'ONBOARDED', to: 'CONNECTED' },
      }),
    ]);
    expect((await load(tenantId)).lastRung).toBe('CONNECTED');

    // Past the onboarding window the drift watch moves the band, once.
    expect(await eventsOf(tenantId, 'adoption.health_band_changed')).toEqual([]);
    bed.clock.set(new Date(T0.getTime() + 46 * DAY));
    await bed.app.runDriftWatch();
    const band = (await load(tenantId)).lastBand;
    expect(band).not.toBe('ONBOARDING');
    const bands = await eventsOf(tenantId, 'adoption.health_band_changed');
    expect(bands).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ from: 'ONBOARDING', to: band }) }),
    ]);
    // A pass that changes nothing publishes nothing; the outbox is empty and so are the reminders.
    bed.clock.set(new Date(T0.getTime() + 47 * DAY));
    await bed.app.runDriftWatch();
    expect(await eventsOf(tenantId, 'adoption.health_band_changed')).toHaveLength(1);
    expect(await eventsOf(tenantId, 'adoption.rung_changed')).toHaveLength(1);
    expect((await load(tenantId)).pendingEvents).toBe(0);
    expect(await reminders(tenantId)).toBe(0);
  });

  it('keeps the event of a write whose process died before publishing, and the relay publishes it once', async () => {
    const tenantId = randomUUID();
    bed.clock.set(T0);
    await publish(tenantId, profile(tenantId, T0));
    domainDown = true;
    try {
      await publish(tenantId, ...connection(tenantId, new Date(T0.getTime() + DAY)));
    } finally {
      domainDown = false;
    }
    expect(await eventsOf(tenantId)).toEqual([]);
    expect((await load(tenantId)).pendingEvents).toBe(1);
    expect(await reminders(tenantId)).toBe(1);

    // Within the grace period the relay leaves it alone; after it, it publishes and empties the outbox.
    await bed.app.runOutboxRelay();
    expect(await eventsOf(tenantId)).toEqual([]);
    bed.clock.set(new Date(T0.getTime() + DEFAULT_OUTBOX_GRACE_MS + 1_000));
    // The first relay publish lands but its acknowledgement is lost: it stays in the outbox.
    loseNextAck = true;
    await bed.app.runOutboxRelay();
    expect((await load(tenantId)).pendingEvents).toBe(1);
    await bed.app.runOutboxRelay();
    const rungs = await eventsOf(tenantId, 'adoption.rung_changed');
    expect(rungs).toEqual([expect.objectContaining({ data: { from: 'ONBOARDED', to: 'CONNECTED' } })]);
    expect((await load(tenantId)).pendingEvents).toBe(0);
    expect(await reminders(tenantId)).toBe(0);
    await bed.app.runOutboxRelay();
    expect(await eventsOf(tenantId, 'adoption.rung_changed')).toHaveLength(1);
  });

  it('relays the audit entry of a plan whose process died before publishing it, from the plan’s own document', async () => {
    const tenantId = randomUUID();
    bed.clock.set(T0);
    const auth = await bed.as(tenantId);
    domainDown = true;
    let planId: string;
    try {
      planId = (await unaryCall(bed.client, 'CreateSuccessPlan', CONNECT_PLAN, auth)).id;
    } finally {
      domainDown = false;
    }
    const plans = bed.db.collection<{ tenantId: string; pendingEvents?: string[] }>('success_plans');
    expect((await plans.findOne({ tenantId }))?.pendingEvents).toHaveLength(1);
    expect(await eventsOf(tenantId)).toEqual([]);
    bed.clock.set(new Date(T0.getTime() + DEFAULT_OUTBOX_GRACE_MS + 1_000));
    await bed.app.runOutboxRelay();
    await bed.app.runOutboxRelay();
    expect(await eventsOf(tenantId, 'audit.entry_recorded')).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          action: 'success_plan.created',
          target: { type: 'success_plan', id: planId },
        }),
      }),
    ]);
    expect((await plans.findOne({ tenantId }))?.pendingEvents).toEqual([]);
    expect(await reminders(tenantId)).toBe(0);
  });

  it('publishes risk_signal.opened, then risk_signal.escalated for each ladder step of the drift watch', async () => {
    const tenantId = randomUUID();
    bed.clock.set(T0);
    await publish(
      tenantId,
      productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, T0, {
        partnerTenantId: PARTNER_1,
      }),
    );
    const detectedAt = T0.getTime() + 3 * DAY;
    bed.clock.set(new Date(detectedAt + HOUR));
    await bed.app.runDriftWatch();
    const opened = await eventsOf(tenantId, 'risk_signal.opened');
    expect(opened).toEqual([expect.objectContaining({ data: { kind: 'INVITATION_UNACCEPTED' } })]);
    const riskSignalId = opened[0]?.subject['riskSignalId'];
    expect(riskSignalId).toEqual(expect.any(String));

    bed.clock.set(new Date(detectedAt + DAY + HOUR));
    await bed.app.runDriftWatch();
    expect(await eventsOf(tenantId, 'risk_signal.escalated')).toEqual([
      expect.objectContaining({
        subject: { riskSignalId },
        data: { kind: 'INVITATION_UNACCEPTED', from: 'OPEN', to: 'AUTO_NUDGED', escalatedToHuman: false },
      }),
    ]);
    // The same pass again (nothing due) publishes nothing more.
    await bed.app.runDriftWatch();
    expect(await eventsOf(tenantId, 'risk_signal.escalated')).toHaveLength(1);

    await publish(
      tenantId,
      productEvent(tenantId, 'connection.accepted', { connectionId: 'c-1' }, bed.clock.now(), {
        partnerTenantId: PARTNER_1,
      }),
    );
    expect(await eventsOf(tenantId, 'risk_signal.resolved')).toEqual([
      expect.objectContaining({ subject: { riskSignalId }, data: { kind: 'INVITATION_UNACCEPTED' } }),
    ]);
  });

  it('writes an audit entry for a manual completion and for a plan’s create and renewal, naming the caller and no credential', async () => {
    const tenantId = randomUUID();
    bed.clock.set(T0);
    const auth = await bed.as(tenantId);
    await publish(tenantId, profile(tenantId, T0));
    await unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held' }, auth);
    const plan = await unaryCall(bed.client, 'CreateSuccessPlan', CONNECT_PLAN, auth);
    await unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: plan.id }, auth);

    const audits = await eventsOf(tenantId, 'audit.entry_recorded');
    const actor = { type: 'user', id: expect.any(String) };
    expect(audits).toEqual([
      expect.objectContaining({
        data: {
          actor,
          action: 'milestone.completed_manually',
          target: { type: 'milestone', id: 'kickoff_call_held' },
          outcome: 'SUCCESS',
        },
      }),
      expect.objectContaining({
        data: {
          actor,
          action: 'success_plan.created',
          target: { type: 'success_plan', id: plan.id },
          outcome: 'SUCCESS',
        },
      }),
      expect.objectContaining({
        data: expect.objectContaining({ actor, action: 'success_plan.renewed', outcome: 'SUCCESS' }),
      }),
    ]);
    // A completion pinned to a version writes its entry with its recompute, in the same update.
    const pinnedTenant = randomUUID();
    await publish(pinnedTenant, profile(pinnedTenant, T0));
    const { version } = await load(pinnedTenant);
    await unaryCall(
      bed.client,
      'CompleteMilestone',
      { key: 'kickoff_call_held', expectedVersion: version },
      await bed.as(pinnedTenant),
    );
    expect(await eventsOf(pinnedTenant, 'audit.entry_recorded')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ action: 'milestone.completed_manually' }) }),
    ]);
    const token = auth.authorization.replace(/^Bearer /, '');
    for (const entry of audits) expect(JSON.stringify(entry)).not.toContain(token);
    // Every outbox is empty again (the aggregate's and the plan documents').
    expect((await load(tenantId)).pendingEvents).toBe(0);
    expect(
      await bed.db
        .collection('success_plans')
        .countDocuments({ tenantId, 'pendingEvents.0': { $exists: true } }),
    ).toBe(0);
    expect(await reminders(tenantId)).toBe(0);
  });
});
