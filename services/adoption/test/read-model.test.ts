import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type AdoptionServiceClient } from '@tap/contracts';
import { readModelNoticeSubject } from '@tap/events';
import { createClient, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { gateOpen, testIdentity, waitFor } from '@tap/testkit';
import type { CommandStartedEvent } from 'mongodb';
import type { AdoptionApp } from '../src/app.js';
import { AGGREGATES_COLLECTION } from '../src/store/aggregate-document.js';
import { productEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

// A minute of TTL: every fresh answer below comes from a write's notice, never from expiry.
const LONG_TTL_MS = 60_000;

let bed: TestBed;
let replica: AdoptionApp;
let replicaClient: AdoptionServiceClient;

beforeAll(async () => {
  bed = await openTestBed('read model', undefined, { readModelTtlMs: LONG_TTL_MS });
  replica = bed.replica({ readModelTtlMs: LONG_TTL_MS });
  replicaClient = createClient(
    contracts().adoption.AdoptionService,
    `127.0.0.1:${await replica.grpc.listen('127.0.0.1', 0)}`,
    tlsFromPem(await testIdentity('gateway')),
  );
  await bed.startConsumer();
});
afterAll(async () => {
  replicaClient?.close();
  await replica?.grpc.shutdown(500);
  await bed?.close();
});

const kickoff = (state: { milestones: { key: string; status: string }[] }) =>
  state.milestones.find((m) => m.key === 'kickoff_call_held')?.status;

/** The aggregate's version as stored (what the consumer wrote), read past every cache. */
async function storedVersion(tenantId: string): Promise<number> {
  const doc = await bed.db
    .collection<{ _id: string; version?: number }>(AGGREGATES_COLLECTION)
    .findOne({ _id: tenantId });
  return doc?.version ?? 0;
}

/** Counts find commands on the aggregates collection for one tenant's document, until stop(). */
function countAggregateFinds(tenantId: string) {
  const client = bed.db.client;
  let count = 0;
  const listener = (event: CommandStartedEvent) => {
    const filter = event.command['filter'] as { _id?: unknown } | undefined;
    if (
      event.commandName === 'find' &&
      event.command['find'] === AGGREGATES_COLLECTION &&
      filter?._id === tenantId
    )
      count += 1;
  };
  client.on('commandStarted', listener);
  return { count: () => count, stop: () => void client.off('commandStarted', listener) };
}

/** A tenant on CORE with its profile completed (kickoff's dependency), read once by `client`. */
async function tenantReadyForKickoff(client: AdoptionServiceClient) {
  const tenantId = randomUUID();
  await bed.setTier(tenantId, 'CORE');
  // The tier's own write (setTier waits for it) is not the event's.
  const base = await storedVersion(tenantId);
  const auth = await bed.as(tenantId, 'OWNER');
  await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, bed.clock.now()));
  await waitFor('the profile event applied', async () => (await storedVersion(tenantId)) > base, {
    timeoutMs: 30_000,
  });
  const state = await unaryCall(client, 'GetState', {}, auth);
  expect(kickoff(state)).not.toBe('DONE');
  return { tenantId, auth, state };
}

describe('the cached read model of adoption', () => {
  it('serves applied events to the next read on the replica that consumed them', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const base = await storedVersion(tenantId);
    const auth = await bed.as(tenantId);
    expect((await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount).toBe(0);
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, bed.clock.now()));
    await waitFor('the event applied', async () => (await storedVersion(tenantId)) > base, {
      timeoutMs: 30_000,
    });
    expect((await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount).toBe(1);
  });

  it("serves the consumer's write to the next read with one find of its projection, then from memory", async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const base = await storedVersion(tenantId);
    const auth = await bed.as(tenantId);
    await unaryCall(bed.client, 'GetState', {}, auth);
    await bed.publisher.publish(productEvent(tenantId, 'company.profile_completed', {}, bed.clock.now()));
    await waitFor('the event applied', async () => (await storedVersion(tenantId)) > base, {
      timeoutMs: 30_000,
    });
    const finds = countAggregateFinds(tenantId);
    try {
      expect((await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount).toBe(1);
      expect(finds.count()).toBe(1);
      await unaryCall(bed.client, 'GetCoverage', {}, auth);
      await unaryCall(bed.client, 'GetHealthExplanation', {}, auth);
      expect((await unaryCall(bed.client, 'GetState', {}, auth)).appliedEventCount).toBe(1);
      expect(finds.count()).toBe(1);
    } finally {
      finds.stop();
    }
  });

  it('serves a manual completion to the next read on the replica that wrote it', async () => {
    const unpinned = await tenantReadyForKickoff(bed.client);
    await unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held' }, unpinned.auth);
    expect(kickoff(await unaryCall(bed.client, 'GetState', {}, unpinned.auth))).toBe('DONE');

    const pinned = await tenantReadyForKickoff(bed.client);
    await unaryCall(
      bed.client,
      'CompleteMilestone',
      { key: 'kickoff_call_held', expectedVersion: Number(pinned.state.version) },
      pinned.auth,
    );
    const after = await unaryCall(bed.client, 'GetState', {}, pinned.auth);
    expect(kickoff(after)).toBe('DONE');
    expect(Number(after.version)).toBe(await storedVersion(pinned.tenantId));
  });

  it("drops another replica's cached state on the writer's notice, long before its TTL", async () => {
    const { tenantId, auth } = await tenantReadyForKickoff(replicaClient);
    expect(kickoff(await unaryCall(replicaClient, 'GetState', {}, auth))).not.toBe('DONE');

    // Heard on the same connection as the replica's subscription, after it: the replica has it too.
    const heard = gateOpen();
    const watch = bed.nc.subscribe(readModelNoticeSubject(bed.events.subjectPrefix, 'adoption'), {
      callback: (_error, msg) => {
        if (msg.string().includes(tenantId)) heard.open();
      },
    });
    await bed.nc.flush();
    await unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held' }, auth);
    await heard.promise;
    watch.unsubscribe();
    expect(kickoff(await unaryCall(replicaClient, 'GetState', {}, auth))).toBe('DONE');
  });

  it("serves a plan written on another replica once the writer's notice arrives", async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const auth = await bed.as(tenantId, 'OWNER');
    expect((await unaryCall(replicaClient, 'GetSuccessPlan', {}, auth)).plan ?? null).toBeNull();

    const heard = gateOpen();
    const watch = bed.nc.subscribe(readModelNoticeSubject(bed.events.subjectPrefix, 'adoption-plans'), {
      callback: (_error, msg) => {
        if (msg.string().includes(tenantId)) heard.open();
      },
    });
    await bed.nc.flush();
    const plan = {
      title: 'Get connected',
      targetDate: new Date(bed.clock.now().getTime() + 90 * 86_400_000).toISOString(),
      objectives: [{ label: 'Set up', milestoneKeys: ['company_profile_completed'] }],
    };
    await unaryCall(bed.client, 'CreateSuccessPlan', plan, auth);
    // The writer's own replica serves its write at once.
    expect((await unaryCall(bed.client, 'GetSuccessPlan', {}, auth)).plan?.title).toBe('Get connected');
    await heard.promise;
    watch.unsubscribe();
    expect((await unaryCall(replicaClient, 'GetSuccessPlan', {}, auth)).plan?.title).toBe('Get connected');
  });

  it('keeps at most the configured number of tenants (least recently used out first)', async () => {
    const small = bed.replica({ readModelMaxTenants: 2, readModelTtlMs: LONG_TTL_MS });
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await small.reads.view(a);
    await small.reads.view(b);
    await small.reads.view(a);
    await small.reads.view(c);
    expect(small.reads.size()).toBe(2);
    // a was used after b: b went, a stayed.
    await bed.db
      .collection<{ _id: string; version: number }>(AGGREGATES_COLLECTION)
      .insertOne({ _id: a, version: 7 });
    expect((await small.reads.view(a)).version).toBe(0);
  });
});
