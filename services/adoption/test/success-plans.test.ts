import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { plansRepository } from '../src/store/plans-repository.js';
import { remoteError } from '@tap/service-testkit';
import { productEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { waitFor } from '@tap/testkit';

const NOW = new Date('2025-05-01T10:00:00.000Z');
const plan = {
  title: 'Get connected',
  targetDate: '2025-08-01T00:00:00Z',
  objectives: [
    { label: 'Set up', milestoneKeys: ['company_profile_completed', 'first_product_created'] },
    { label: 'Connect', milestoneKeys: ['first_connection_made'] },
  ],
};

describe('success plans', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('plans');
    bed.clock.set(NOW);
    await bed.startConsumer();
  });
  afterAll(async () => {
    await bed?.close();
  });

  const chain = (tenantId: string) => plansRepository(bed.db).chain(tenantId);
  const activePlans = async (tenantId: string) =>
    (await chain(tenantId)).filter((p) => p.status === 'ACTIVE');

  it('keeps exactly one ACTIVE plan when ten creates race', async () => {
    const tenantId = randomUUID();
    const auth = await bed.as(tenantId);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        unaryCall(bed.client, 'CreateSuccessPlan', { ...plan, title: `Plan ${i}` }, auth),
      ),
    );
    const created = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.flatMap((o) =>
      o.status === 'rejected' ? [o.reason as { grpcStatus: number; reason?: string }] : [],
    );
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const error of refused)
      expect(error).toMatchObject({ grpcStatus: GrpcStatus.ABORTED, reason: 'PLAN_ALREADY_ACTIVE' });
    expect(await activePlans(tenantId)).toHaveLength(1);
  });

  it('renews once when renewals race: predecessor RENEWED, one ACTIVE successor carrying every objective', async () => {
    const tenantId = randomUUID();
    const auth = await bed.as(tenantId, 'ADMIN');
    const first = await unaryCall(bed.client, 'CreateSuccessPlan', plan, auth);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: first.id }, auth),
      ),
    );
    const renewed = outcomes.filter((o) => o.status === 'fulfilled');
    expect(renewed).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected')
        expect(o.reason).toMatchObject({ grpcStatus: GrpcStatus.ABORTED, reason: 'PLAN_NOT_ACTIVE' });
    }
    const stored = await chain(tenantId);
    expect(stored.map((p) => p.status).sort()).toEqual(['ACTIVE', 'RENEWED']);
    const { plan: successor } = await unaryCall(bed.client, 'GetSuccessPlan', {}, auth);
    expect(successor).toMatchObject({ status: 'ACTIVE', renewedFromId: first.id, title: plan.title });
    expect(successor?.objectives.map((o) => o.label)).toEqual(['Set up', 'Connect']);
    // Without a targetDate the successor runs as long as the predecessor was planned to.
    expect(Date.parse(successor!.targetDate) - NOW.getTime()).toBe(
      Date.parse(first.targetDate) - Date.parse(first.createdAt),
    );
  });

  it('computes met from the milestones, whatever the caller sent', async () => {
    const tenantId = randomUUID();
    const auth = await bed.as(tenantId);
    await unaryCall(bed.client, 'CreateSuccessPlan', plan, auth);
    for (const e of [
      productEvent(tenantId, 'company.profile_completed', {}, NOW),
      productEvent(tenantId, 'product.created', { productId: 'p1' }, NOW),
    ])
      await bed.publisher.publish(e);
    await waitFor('the first objective to be met', async () => {
      const { plan: active } = await unaryCall(bed.client, 'GetSuccessPlan', {}, auth);
      return active?.objectives[0]?.met === true;
    });
    const { plan: active } = await unaryCall(bed.client, 'GetSuccessPlan', {}, auth);
    expect(active?.objectives.map((o) => o.met)).toEqual([true, false]);
  });

  it('answers no plan as an absent plan', async () => {
    const view = await unaryCall(bed.client, 'GetSuccessPlan', {}, await bed.as(randomUUID()));
    expect(view.plan).toBeNull();
  });

  it('lets only an OWNER or ADMIN create or renew', async () => {
    const tenantId = randomUUID();
    const member = await bed.as(tenantId, 'MEMBER');
    const create = await remoteError(unaryCall(bed.client, 'CreateSuccessPlan', plan, member));
    expect(create).toMatchObject({ grpcStatus: GrpcStatus.PERMISSION_DENIED, reason: 'ROLE_FORBIDDEN' });
    const first = await unaryCall(bed.client, 'CreateSuccessPlan', plan, await bed.as(tenantId));
    const renew = await remoteError(
      unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: first.id }, member),
    );
    expect(renew).toMatchObject({ grpcStatus: GrpcStatus.PERMISSION_DENIED, reason: 'ROLE_FORBIDDEN' });
  });

  it("never renews another tenant's plan: it does not exist for the caller", async () => {
    const owner = randomUUID();
    const first = await unaryCall(bed.client, 'CreateSuccessPlan', plan, await bed.as(owner));
    const intruder = await bed.as(randomUUID());
    const error = await remoteError(
      unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: first.id }, intruder),
    );
    expect(error).toMatchObject({ grpcStatus: GrpcStatus.NOT_FOUND, reason: 'PLAN_NOT_FOUND' });
    expect(await activePlans(owner)).toEqual([expect.objectContaining({ id: first.id })]);
  });
});
