import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { as, remoteError } from '@tap/service-testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await openTestBed('seats');
});
afterAll(async () => bed.close());

const asIdentity = async (tenantId: string) => ({ authorization: await bed.tokens.serviceBearer(tenantId) });

async function take(tenantId: string, userId: string) {
  return unaryCall(bed.identityClient, 'TakeSeat', { userId }, await asIdentity(tenantId));
}

async function release(tenantId: string, userId: string) {
  return unaryCall(bed.identityClient, 'ReleaseSeat', { userId }, await asIdentity(tenantId));
}

async function usersCurrent(tenantId: string): Promise<number | undefined> {
  const report = await unaryCall(bed.client, 'GetUsage', {}, await as(bed, tenantId));
  return report.limits.find((l) => l.key === 'MAX_USERS')?.current;
}

async function canInvite(tenantId: string) {
  return unaryCall(bed.client, 'Can', { action: 'INVITE_USER', resourceCount: 1 }, await as(bed, tenantId));
}

describe('the seat ledger', () => {
  it('holds seats up to the tier limit and refuses the next with the INVITE_USER denial', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    for (const user of ['u1', 'u2', 'u3'])
      expect(await take(tenantId, user)).toMatchObject({ granted: true });
    const refused = await take(tenantId, 'u4');
    expect(refused).toMatchObject({
      granted: false,
      changed: false,
      seatsHeld: 3,
      denial: {
        allowed: false,
        reason: 'LIMIT_EXCEEDED',
        details: { limit: 'MAX_USERS', current: 3, requested: 1, available: 0 },
      },
    });
    expect(await usersCurrent(tenantId)).toBe(3);
    expect(await canInvite(tenantId)).toMatchObject({ allowed: false, reason: 'LIMIT_EXCEEDED' });
  });

  it('is idempotent per user: taking twice holds one seat, releasing twice frees one', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    expect(await take(tenantId, 'u1')).toMatchObject({ granted: true, changed: true, seatsHeld: 1 });
    expect(await take(tenantId, 'u1')).toMatchObject({ granted: true, changed: false, seatsHeld: 1 });
    expect(await release(tenantId, 'u1')).toMatchObject({ changed: true, seatsHeld: 0 });
    expect(await release(tenantId, 'u1')).toMatchObject({ changed: false, seatsHeld: 0 });
    expect(await usersCurrent(tenantId)).toBe(0);
    expect(await canInvite(tenantId)).toMatchObject({ allowed: true });
  });

  it('grants exactly the seats left when many users ask at once', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    await take(tenantId, 'owner');
    await take(tenantId, 'admin');
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => take(tenantId, `joiner-${i}`)));
    expect(answers.filter((a) => a.granted)).toHaveLength(1);
    expect(await usersCurrent(tenantId)).toBe(3);
  });

  it('keeps seats over a lowered limit and grants no new one until enough are freed', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    for (let i = 0; i < 5; i += 1) await take(tenantId, `u${i}`);
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    expect(await usersCurrent(tenantId)).toBe(5);
    expect(await take(tenantId, 'new')).toMatchObject({
      granted: false,
      denial: { details: { available: 0 } },
    });
    await release(tenantId, 'u0');
    await release(tenantId, 'u1');
    expect(await take(tenantId, 'new')).toMatchObject({ granted: false });
    await release(tenantId, 'u2');
    expect(await take(tenantId, 'new')).toMatchObject({ granted: true });
  });

  it("sets the seat set and the count from identity's active users (migration and repair)", async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await take(tenantId, 'gone');
    // A crash between the count and the seat document leaves the count one too high.
    await bed.db
      .collection('usage')
      .updateOne({ _id: tenantId as never }, { $inc: { 'counters.MAX_USERS.used': 1 } });
    expect(await usersCurrent(tenantId)).toBe(2);
    const synced = await unaryCall(
      bed.identityClient,
      'SyncSeats',
      { userIds: ['a', 'b', 'c', 'a'] },
      await asIdentity(tenantId),
    );
    expect(synced).toMatchObject({ seatsHeld: 3, added: 3, removed: 1 });
    expect(await usersCurrent(tenantId)).toBe(3);
    expect(await take(tenantId, 'b')).toMatchObject({ granted: true, changed: false });
  });

  it('keeps a seat taken after identity listed its users, although not listed', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    await take(tenantId, 'old');
    const listedAt = new Date(Date.now() - 60_000).toISOString();
    const synced = await unaryCall(
      bed.identityClient,
      'SyncSeats',
      { userIds: ['a'], listedAt },
      await asIdentity(tenantId),
    );
    expect(synced).toMatchObject({ seatsHeld: 2, added: 1, removed: 0 });
  });

  it("refuses every caller but identity, and a token that is not identity's service token", async () => {
    const tenantId = randomUUID();
    const denied = await remoteError(
      unaryCall(bed.gatewayClient, 'TakeSeat', { userId: 'u1' }, await asIdentity(tenantId)),
    );
    expect(denied.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
    const userToken = await remoteError(
      unaryCall(bed.identityClient, 'TakeSeat', { userId: 'u1' }, await as(bed, tenantId)),
    );
    expect(userToken).toMatchObject({
      grpcStatus: GrpcStatus.PERMISSION_DENIED,
      reason: 'SEAT_CALLER_FORBIDDEN',
    });
    const otherService = await remoteError(
      unaryCall(
        bed.identityClient,
        'TakeSeat',
        { userId: 'u1' },
        { authorization: await bed.tokens.serviceBearer(tenantId, 'adoption') },
      ),
    );
    expect(otherService.reason).toBe('SEAT_CALLER_FORBIDDEN');
    const noToken = await remoteError(unaryCall(bed.identityClient, 'TakeSeat', { userId: 'u1' }));
    expect(noToken.grpcStatus).toBe(GrpcStatus.UNAUTHENTICATED);
    expect(await usersCurrent(tenantId)).toBe(0);
  });

  it.each([[''], ['a.b'], ['$x'], ['x'.repeat(129)]])(
    'refuses the user id %j as INVALID_USER_ID',
    async (userId) => {
      const error = await remoteError(take(randomUUID(), userId));
      expect(error).toMatchObject({ grpcStatus: GrpcStatus.INVALID_ARGUMENT, reason: 'INVALID_USER_ID' });
    },
  );

  it('no longer counts user.joined events (the ledger is the one source of MAX_USERS)', async () => {
    const tenantId = randomUUID();
    await take(tenantId, 'u1');
    expect(await usersCurrent(tenantId)).toBe(1);
  });
});
