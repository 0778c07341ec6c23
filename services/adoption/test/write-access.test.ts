import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { remoteError } from '@tap/service-testkit';
import { productEvent } from './support/events.js';
import { consumerSettled } from './support/settled.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

/**
 * The adoption writes re-checked by the service itself (zero trust, docs/security.md endpoint
 * table): a signed-in OWNER or ADMIN only; an OAuth client's token, whatever its scopes, never.
 */
describe('who may write to the adoption journey', () => {
  let bed: TestBed;
  let tenant: string;

  beforeAll(async () => {
    bed = await openTestBed('write_access');
    bed.clock.set(new Date('2025-02-09T09:00:00.000Z'));
    await bed.startConsumer();
    tenant = randomUUID();
    await bed.setTier(tenant, 'CORE');
    // kickoff_call_held is manual and needs only the profile, which this event completes.
    await bed.publisher.publish(
      productEvent(tenant, 'company.profile_completed', {}, new Date('2025-02-03T09:00:00.000Z')),
    );
    await consumerSettled(bed.jsm, bed.events.streamName, bed.events.consumerName);
  });
  afterAll(async () => {
    await bed?.close();
  });

  const asClient = async (scopes: string[]) => ({
    authorization: await bed.tokens.clientBearer(tenant, scopes),
  });
  const complete = (settings: { authorization: string }) =>
    unaryCall(bed.client, 'CompleteMilestone', { key: 'kickoff_call_held', evidenceRef: '' }, settings);
  const plan = (settings: { authorization: string }) =>
    unaryCall(
      bed.client,
      'CreateSuccessPlan',
      {
        title: 'Go live',
        targetDate: '2031-01-01T00:00:00.000Z',
        objectives: [{ label: 'Profile', milestoneKeys: ['company_profile_completed'] }],
      },
      settings,
    );
  const renew = (settings: { authorization: string }) =>
    unaryCall(bed.client, 'RenewSuccessPlan', { fromPlanId: randomUUID() }, settings);

  it("refuses an OAuth client's token on every write, whatever its scopes (SCOPE_MISSING)", async () => {
    for (const scopes of [['dpp:read'], ['products:write', 'connections:write', 'imports:write']]) {
      const settings = await asClient(scopes);
      for (const write of [complete, plan, renew]) {
        expect(await remoteError(write(settings))).toMatchObject({
          grpcStatus: GrpcStatus.PERMISSION_DENIED,
          reason: 'SCOPE_MISSING',
        });
      }
    }
  });

  it('refuses a MEMBER on every write (ROLE_FORBIDDEN)', async () => {
    const member = await bed.as(tenant, 'MEMBER');
    for (const write of [complete, plan, renew]) {
      expect(await remoteError(write(member))).toMatchObject({
        grpcStatus: GrpcStatus.PERMISSION_DENIED,
        reason: 'ROLE_FORBIDDEN',
      });
    }
  });

  it('lets an ADMIN complete a manual milestone, and a client token still read the state', async () => {
    const state = await unaryCall(
      bed.client,
      'CompleteMilestone',
      { key: 'kickoff_call_held', evidenceRef: '' },
      await bed.as(tenant, 'ADMIN'),
    );
    expect(state.milestones.find((m) => m.key === 'kickoff_call_held')?.status).toBe('DONE');
    const read = await unaryCall(bed.client, 'GetState', {}, await asClient(['dpp:read']));
    expect(read.version).toBe(state.version);
  });
});
