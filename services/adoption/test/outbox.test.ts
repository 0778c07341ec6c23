import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { eventSubject, type ProductEvent } from '@tap/contracts';
import { ensureEventStream, type EventPublisher } from '@tap/events';
import { unaryCall } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { DEFAULT_OUTBOX_GRACE_MS } from '../src/config.js';
import { productEventHandler } from '../src/events/product-event-handler.js';
import { detectedCompletionId } from '../src/domain/index.js';
import { completionOutbox, detectedCompletionOutbox } from '../src/operations/completion-outbox.js';
import { REFUSED_EVENT_RETRY_MS } from '../src/operations/relay-outbox.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { OUTBOX_DUE_COLLECTION, outboxRepository } from '../src/store/outbox-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { productEvent } from './support/events.js';
import { storeIngestDeps } from './support/ingest-deps.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { someDerived } from './support/projection.js';

const START = new Date('2025-05-01T09:00:00.000Z');
const NOW = new Date('2025-05-02T09:00:00.000Z');
const AFTER_GRACE = DEFAULT_OUTBOX_GRACE_MS + 1_000;
const silent = createLogger({ service: 'adoption-test', level: 'silent' });

/** What the app handed to its publish, as the bytes the publisher sends, and how it ended. */
interface Handed {
  readonly tenantId: string;
  readonly json: string;
  readonly duplicate: boolean | undefined;
}

describe('the outbox of milestone.completed on real NATS and FerretDB', () => {
  let bed: TestBed;
  const handed: Handed[] = [];
  // Set by a test: the next publish reaches the stream but its acknowledgement is "lost".
  let loseNextAck = false;

  beforeAll(async () => {
    bed = await openTestBed('outbox', undefined, {
      publish: async (event: ProductEvent, publisher: EventPublisher) => {
        const record = { tenantId: event.tenantId, json: JSON.stringify(event) };
        const result = await publisher.publish(event).catch((error: unknown) => {
          handed.push({ ...record, duplicate: undefined });
          throw error;
        });
        handed.push({ ...record, duplicate: result.duplicate });
        if (loseNextAck) {
          loseNextAck = false;
          throw new Error('the acknowledgement of the publish was lost');
        }
        return result;
      },
    });
  });
  afterAll(async () => {
    await bed?.close();
  });

  // The store as another process would see it (its own lock); the bed's app is not involved.
  const lock = () => createTenantWriteLock();
  const load = (tenantId: string) => aggregatesRepository(bed.db, lock()).load(tenantId);
  const reminders = (tenantId: string) =>
    bed.db.collection(OUTBOX_DUE_COLLECTION).countDocuments({ tenantId });
  const subject = (tenantId: string) =>
    eventSubject(tenantId, 'milestone.completed', bed.events.subjectPrefix);

  const streamAbsent = () => bed.jsm.streams.delete(bed.events.streamName).catch(() => false);
  const streamPresent = () => ensureEventStream(bed.jsm, bed.events);
  /** How many milestone.completed messages the stream holds for the tenant. */
  const stored = async (tenantId: string) => {
    const { state } = await bed.jsm.streams.info(bed.events.streamName, {
      subjects_filter: subject(tenantId),
    });
    return state.subjects?.[subject(tenantId)] ?? 0;
  };

  /** A CORE tenant with its profile completed (applied by the real handler, with or without a stream). */
  const readyTenant = async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const l = lock();
    await productEventHandler({ ...storeIngestDeps(bed.db, bed.clock, { lock: l }), logger: silent })(
      productEvent(tenantId, 'company.profile_completed', {}, START),
    );
    // The profile milestone's own milestone.completed is not what these tests follow (the test
    // below does): taken out of the outbox as if its publish had succeeded.
    for (const id of (await load(tenantId)).unpublished)
      await outboxRepository(bed.db, l).markPublished(tenantId, id);
    return tenantId;
  };
  const completeKickoff = async (tenantId: string) =>
    unaryCall(
      bed.client,
      'CompleteMilestone',
      { key: 'kickoff_call_held', evidenceRef: 'crm:kickoff-1' },
      await bed.as(tenantId),
    );

  it('publishes a completion whose publish failed once the grace period is over, exactly once', async () => {
    bed.clock.set(NOW);
    await streamAbsent();
    const tenantId = await readyTenant();

    // NATS answers "no responders": nothing captures the subject. The call still succeeds.
    const done = await completeKickoff(tenantId);
    expect(done.version).toBe(2);
    expect(done.milestones.find((m) => m.key === 'kickoff_call_held')?.status).toBe('DONE');
    const aggregate = await load(tenantId);
    const [completion] = aggregate.manualCompletions;
    expect(aggregate.unpublished).toEqual([completion?.id]);
    expect(handed.filter((h) => h.tenantId === tenantId)).toEqual([
      expect.objectContaining({ duplicate: undefined }),
    ]);

    // Inside the grace period the relay leaves it to the completing call.
    bed.clock.advance(DEFAULT_OUTBOX_GRACE_MS - 1_000);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0, published: 0 });

    // After it, with the stream still missing: the relay fails, keeps it and ends its pass.
    bed.clock.advance(2_000);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, published: 0, failed: 1 });
    expect((await load(tenantId)).unpublished).toEqual([completion?.id]);

    await streamPresent();
    bed.clock.advance(10_000);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, published: 1, failed: 0 });
    expect((await load(tenantId)).unpublished).toEqual([]);
    expect(await reminders(tenantId)).toBe(0);
    expect(await stored(tenantId)).toBe(1);
    const message = await bed.jsm.streams.getMessage(bed.events.streamName, {
      last_by_subj: subject(tenantId),
    });
    expect(message?.header.get('Nats-Msg-Id')).toBe(completion?.id);
    expect(message?.json()).toEqual({
      id: completion?.id,
      type: 'milestone.completed',
      tenantId,
      occurredAt: completion?.completedAt,
      subject: { milestoneKey: 'kickoff_call_held' },
      data: { evidenceRef: 'crm:kickoff-1', actorId: completion?.actorId },
    });
    // The relay sent the very bytes the completing call had tried to send.
    const attempts = handed.filter((h) => h.tenantId === tenantId).map((h) => h.json);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts).size).toBe(1);

    // Nothing is left to send, however long the relay keeps running.
    bed.clock.advance(10 * AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0, published: 0 });
    expect(await stored(tenantId)).toBe(1);
  });

  it('marks a completion published on the normal path, so the relay never sends it again', async () => {
    bed.clock.set(NOW);
    await streamPresent();
    const tenantId = await readyTenant();
    await completeKickoff(tenantId);
    expect((await load(tenantId)).unpublished).toEqual([]);
    expect(await reminders(tenantId)).toBe(0);
    expect(await stored(tenantId)).toBe(1);

    bed.clock.advance(AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0, published: 0 });
    bed.clock.advance(10 * AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0, published: 0 });
    expect(await stored(tenantId)).toBe(1);
    expect(handed.filter((h) => h.tenantId === tenantId)).toHaveLength(1);
  });

  it('publishes each pending completion once when two replicas relay at the same time', async () => {
    bed.clock.set(NOW);
    await streamAbsent();
    const tenants: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const tenantId = await readyTenant();
      await completeKickoff(tenantId);
      tenants.push(tenantId);
    }
    await streamPresent();
    bed.clock.advance(AFTER_GRACE);

    const [a, b] = [bed.replica(), bed.replica()];
    const reports = await Promise.all([
      a.runOutboxRelay(),
      b.runOutboxRelay(),
      a.runOutboxRelay(),
      b.runOutboxRelay(),
    ]);
    const sum = (key: 'claimed' | 'published' | 'settled' | 'failed') =>
      reports.reduce((total, r) => total + r[key], 0);
    expect(sum('failed')).toBe(0);
    // The passes overlapped (several saw every completion due), and the claims let exactly one
    // replica publish each of them; a pass that claimed one after its publisher let go found it
    // published already.
    expect(reports.filter((r) => r.due === tenants.length).length).toBeGreaterThanOrEqual(2);
    expect(sum('published')).toBe(tenants.length);
    expect(sum('claimed')).toBe(sum('published') + sum('settled'));
    for (const tenantId of tenants) {
      expect(await stored(tenantId)).toBe(1);
      expect((await load(tenantId)).unpublished).toEqual([]);
      expect(handed.filter((h) => h.duplicate !== undefined && h.tenantId === tenantId)).toHaveLength(1);
    }
  });

  it('republishes a completion whose acknowledgement was lost, and the stream keeps one copy', async () => {
    bed.clock.set(NOW);
    await streamPresent();
    const tenantId = await readyTenant();
    loseNextAck = true;
    await completeKickoff(tenantId);
    // The stream has it, the service cannot know: it stays in the outbox.
    expect(await stored(tenantId)).toBe(1);
    expect((await load(tenantId)).unpublished).toHaveLength(1);

    bed.clock.advance(AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ published: 1, failed: 0 });
    expect((await load(tenantId)).unpublished).toEqual([]);
    // Same id, same bytes: JetStream's duplicate window answered "duplicate" and stored nothing.
    const attempts = handed.filter((h) => h.tenantId === tenantId);
    expect(attempts.map((h) => h.duplicate)).toEqual([false, true]);
    expect(attempts[0]?.json).toBe(attempts[1]?.json);
    expect(await stored(tenantId)).toBe(1);
  });

  it('keeps an event the contract refuses in the outbox and tries it again an hour later', async () => {
    bed.clock.set(NOW);
    await streamPresent();
    // A tenant id the event contract rejects (not a UUID): only a bug or a contract change does this.
    const tenantId = `not-a-uuid-${randomUUID()}`;
    const l = lock();
    const outbox = outboxRepository(bed.db, l);
    const completion = {
      id: randomUUID(),
      key: 'kickoff_call_held',
      completedAt: NOW.toISOString(),
      evidenceRef: null,
      actorId: null,
    };
    await outbox.remind(tenantId, completion.id, NOW, NOW);
    await aggregatesRepository(bed.db, l).recordCompletion(tenantId, completion, 0, someDerived(), NOW);

    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, refused: 1, failed: 0 });
    expect((await load(tenantId)).unpublished).toEqual([completion.id]);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0 });
    bed.clock.advance(REFUSED_EVENT_RETRY_MS);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 1, refused: 1 });
    await outbox.forget(tenantId, completion.id);
  });

  it('drops the reminder of a completion that was never written, once it is clearly abandoned', async () => {
    bed.clock.set(NOW);
    const tenantId = randomUUID();
    const outbox = outboxRepository(bed.db, lock());
    // The completing call wrote its reminder and died before its aggregate write.
    await outbox.remind(tenantId, randomUUID(), new Date(NOW.getTime() + DEFAULT_OUTBOX_GRACE_MS), NOW);
    bed.clock.advance(AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, waiting: 1 });
    expect(await reminders(tenantId)).toBe(1);
    bed.clock.advance(10 * 60_000);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, settled: 1 });
    expect(await reminders(tenantId)).toBe(0);
  });

  it("still applies adoption's own relayed milestone.completed to the aggregate only once", async () => {
    bed.clock.set(NOW);
    await streamAbsent();
    const tenantId = await readyTenant();
    expect((await completeKickoff(tenantId)).version).toBe(2);
    await streamPresent();
    const consumer = await bed.startConsumer();
    bed.clock.advance(AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ published: 1 });
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    await consumer.stop();
    const aggregate = await load(tenantId);
    expect(aggregate.version).toBe(2);
    expect(aggregate.facts.map((f) => f.type)).toEqual(['company.profile_completed']);
    expect(aggregate.manualCompletions).toHaveLength(1);
  });

  it('publishes one milestone.completed for a milestone events completed, stored DONE with its instant', async () => {
    bed.clock.set(NOW);
    await streamPresent();
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const consumer = await bed.startConsumer();
    const profile = productEvent(tenantId, 'company.profile_completed', {}, START);
    await bed.publisher.publish(profile);
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    // A second trigger, and adoption's own event coming back through the stream: still one, and
    // the returning event is not counted as applied.
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, NOW));
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
    await consumer.stop();

    const id = detectedCompletionId(tenantId, 'company_profile_completed');
    const aggregate = await load(tenantId);
    expect(aggregate.detectedCompletions).toEqual([
      {
        id,
        key: 'company_profile_completed',
        completedAt: START.toISOString(),
        evidenceRef: null,
        actorId: null,
      },
    ]);
    expect(aggregate.unpublished).toEqual([]);
    expect(aggregate.appliedEvents).toBe(2);
    expect(await reminders(tenantId)).toBe(0);
    expect(await stored(tenantId)).toBe(1);
    const message = await bed.jsm.streams.getMessage(bed.events.streamName, {
      last_by_subj: subject(tenantId),
    });
    expect(message?.header.get('Nats-Msg-Id')).toBe(id);
    expect(message?.json()).toEqual({
      id,
      type: 'milestone.completed',
      tenantId,
      occurredAt: START.toISOString(),
      subject: { milestoneKey: 'company_profile_completed' },
      data: {},
    });
    const state = await unaryCall(bed.client, 'GetState', {}, await bed.as(tenantId));
    expect(state.milestones.find((m) => m.key === 'company_profile_completed')).toMatchObject({
      status: 'DONE',
      completedAt: START.toISOString(),
    });
    bed.clock.advance(10 * AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ due: 0, published: 0 });
    expect(await stored(tenantId)).toBe(1);
  });

  it('relays the milestone.completed of an event-detected completion whose publish failed', async () => {
    bed.clock.set(NOW);
    await streamAbsent();
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const l = lock();
    const outbox = outboxRepository(bed.db, l);
    const logger = silent;
    await productEventHandler({
      ...storeIngestDeps(bed.db, bed.clock, { lock: l }),
      completions: detectedCompletionOutbox(
        completionOutbox({
          publish: (e) => bed.publisher.publish(e),
          outbox,
          graceMs: DEFAULT_OUTBOX_GRACE_MS,
        }),
        logger,
      ),
      logger,
    })(productEvent(tenantId, 'company.profile_completed', {}, START));
    const id = detectedCompletionId(tenantId, 'company_profile_completed');
    expect((await load(tenantId)).unpublished).toEqual([id]);
    expect(await reminders(tenantId)).toBe(1);

    await streamPresent();
    bed.clock.advance(AFTER_GRACE);
    expect(await bed.app.runOutboxRelay()).toMatchObject({ claimed: 1, published: 1 });
    expect((await load(tenantId)).unpublished).toEqual([]);
    expect(await stored(tenantId)).toBe(1);
  });
});
