import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { as, remoteError } from '@tap/service-testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await openTestBed('reservations');
});
afterAll(async () => bed.close());
afterEach(() => bed.clock.reset());

type Auth = { authorization: string };

function reserve(
  auth: Auth,
  idempotencyKey: string,
  units: number,
  extra: { action?: string; ttlMs?: number } = {},
) {
  return unaryCall(
    bed.client,
    'Reserve',
    {
      action: extra.action ?? 'BULK_UPLOAD',
      units,
      idempotencyKey,
      ...(extra.ttlMs ? { ttlMs: extra.ttlMs } : {}),
    },
    auth,
  );
}

async function rowsUsed(auth: Auth): Promise<number | undefined> {
  const report = await unaryCall(bed.client, 'GetUsage', {}, auth);
  return report.limits.find((l) => l.key === 'BULK_UPLOAD_ROWS_MONTH')?.current;
}

describe('Reserve', () => {
  it('grants exactly one of two concurrent reservations for the last rows', async () => {
    const auth = await as(bed, randomUUID());
    expect((await reserve(auth, 'earlier-import', 900)).granted).toBe(true);
    const [a, b] = await Promise.all([reserve(auth, 'import-a', 100), reserve(auth, 'import-b', 100)]);
    expect([a.granted, b.granted].sort()).toEqual([false, true]);
    const denied = a.granted ? b : a;
    expect(denied.denial).toMatchObject({
      allowed: false,
      reason: 'LIMIT_EXCEEDED',
      details: { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 1000, requested: 100, available: 0 },
    });
    expect(await rowsUsed(auth)).toBe(1000);
  });

  it('never over-grants under a burst: twelve holds of 100 on 1,000 rows grant ten', async () => {
    const auth = await as(bed, randomUUID());
    const outcomes = await Promise.all(
      Array.from({ length: 12 }, (_, i) => reserve(auth, `burst-${i}`, 100)),
    );
    expect(outcomes.filter((o) => o.granted)).toHaveLength(10);
    expect(await rowsUsed(auth)).toBe(1000);
  });

  it('counts an idempotent retry once and replays the first grant', async () => {
    const auth = await as(bed, randomUUID());
    const first = await reserve(auth, 'retry-me', 250);
    const [second, third] = await Promise.all([
      reserve(auth, 'retry-me', 250),
      reserve(auth, 'retry-me', 250),
    ]);
    expect(first).toMatchObject({ granted: true, replayed: false });
    expect(second).toMatchObject({ granted: true, replayed: true });
    expect(third).toMatchObject({ granted: true, replayed: true });
    expect(second.reservation).toEqual(first.reservation);
    expect(await rowsUsed(auth)).toBe(250);
  });

  it('refuses the same key for a different request as a conflict', async () => {
    const auth = await as(bed, randomUUID());
    await reserve(auth, 'one-key', 10);
    const error = await remoteError(reserve(auth, 'one-key', 11));
    expect([error.grpcStatus, error.reason]).toEqual([GrpcStatus.ABORTED, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('scopes idempotency keys to the tenant', async () => {
    const [one, two] = [await as(bed, randomUUID()), await as(bed, randomUUID())];
    expect((await reserve(one, 'shared-key', 10)).replayed).toBe(false);
    expect((await reserve(two, 'shared-key', 20)).replayed).toBe(false);
    expect([await rowsUsed(one), await rowsUsed(two)]).toEqual([10, 20]);
  });

  it('answers a missing capability as a denial and records nothing', async () => {
    const auth = await as(bed, randomUUID());
    const outcome = await reserve(auth, 'trace-it', 1, { action: 'TRACE_PRODUCT' });
    expect(outcome.granted).toBe(false);
    expect(outcome.denial?.reason).toBe('CAPABILITY_NOT_IN_TIER');
    expect(outcome.reservation).toBeNull();
  });

  it('rejects malformed requests with the domain codes', async () => {
    const auth = await as(bed, randomUUID());
    const cases: [() => Promise<unknown>, string][] = [
      [() => reserve(auth, 'bad key with spaces', 1), 'INVALID_IDEMPOTENCY_KEY'],
      [() => reserve(auth, 'units-zero', 0), 'INVALID_RESOURCE_COUNT'],
      [() => reserve(auth, 'ttl-short', 1, { ttlMs: 10 }), 'INVALID_RESERVATION_TTL'],
      [() => reserve(auth, 'fly', 1, { action: 'FLY' }), 'UNKNOWN_ACTION'],
      [() => unaryCall(bed.client, 'Consume', { idempotencyKey: 'a.b' }, auth), 'INVALID_IDEMPOTENCY_KEY'],
    ];
    for (const [call, code] of cases) {
      const error = await remoteError(call());
      expect([error.grpcStatus, error.reason]).toEqual([GrpcStatus.INVALID_ARGUMENT, code]);
    }
  });
});

describe('Consume and Release', () => {
  it('consumes fewer units than held and gives the rest back; a repeat changes nothing', async () => {
    const auth = await as(bed, randomUUID());
    await reserve(auth, 'partial', 500);
    const consumed = await unaryCall(bed.client, 'Consume', { idempotencyKey: 'partial', units: 320 }, auth);
    expect(consumed.changed).toBe(true);
    expect(consumed.reservation).toMatchObject({ state: 'CONSUMED', units: 500, consumedUnits: 320 });
    expect(await rowsUsed(auth)).toBe(320);
    const again = await unaryCall(bed.client, 'Consume', { idempotencyKey: 'partial', units: 320 }, auth);
    expect(again.changed).toBe(false);
    expect(await rowsUsed(auth)).toBe(320);
    const release = await remoteError(unaryCall(bed.client, 'Release', { idempotencyKey: 'partial' }, auth));
    expect([release.grpcStatus, release.reason]).toEqual([
      GrpcStatus.FAILED_PRECONDITION,
      'RESERVATION_CONSUMED',
    ]);
  });

  it('releases the units, so they can be reserved again; consuming after release fails', async () => {
    const auth = await as(bed, randomUUID());
    await reserve(auth, 'give-back', 1000);
    expect((await reserve(auth, 'blocked', 1)).granted).toBe(false);
    const released = await unaryCall(bed.client, 'Release', { idempotencyKey: 'give-back' }, auth);
    expect(released).toMatchObject({ changed: true, reservation: { state: 'RELEASED' } });
    expect(await rowsUsed(auth)).toBe(0);
    expect((await reserve(auth, 'now-fits', 1000)).granted).toBe(true);
    const consume = await remoteError(
      unaryCall(bed.client, 'Consume', { idempotencyKey: 'give-back' }, auth),
    );
    expect([consume.grpcStatus, consume.reason]).toEqual([
      GrpcStatus.FAILED_PRECONDITION,
      'RESERVATION_RELEASED',
    ]);
  });

  it('refuses to consume more than held, and an unknown key', async () => {
    const auth = await as(bed, randomUUID());
    await reserve(auth, 'small', 5);
    const more = await remoteError(
      unaryCall(bed.client, 'Consume', { idempotencyKey: 'small', units: 6 }, auth),
    );
    expect([more.grpcStatus, more.reason]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'CONSUME_EXCEEDS_RESERVATION',
    ]);
    const missing = await remoteError(
      unaryCall(bed.client, 'Release', { idempotencyKey: 'never-made' }, auth),
    );
    expect([missing.grpcStatus, missing.reason]).toEqual([GrpcStatus.NOT_FOUND, 'RESERVATION_NOT_FOUND']);
  });
});

describe('expiry and clean-up', () => {
  it('keeps an expired hold counted until the clean-up job releases it, then forgets it after retention', async () => {
    const auth = await as(bed, randomUUID());
    bed.clock.set('2026-11-10T12:00:00.000Z');
    await reserve(auth, 'short-hold', 600, { ttlMs: 1_000 });
    bed.clock.advance(1_000);
    const late = await remoteError(unaryCall(bed.client, 'Consume', { idempotencyKey: 'short-hold' }, auth));
    expect([late.grpcStatus, late.reason]).toEqual([GrpcStatus.FAILED_PRECONDITION, 'RESERVATION_EXPIRED']);
    expect(await rowsUsed(auth)).toBe(600);

    const pass = await bed.app.runCleanup();
    expect(pass.expired).toBeGreaterThanOrEqual(1);
    expect(pass.failed).toBe(0);
    expect(await rowsUsed(auth)).toBe(0);
    const release = await unaryCall(bed.client, 'Release', { idempotencyKey: 'short-hold' }, auth);
    expect(release).toMatchObject({ changed: false, reservation: { state: 'EXPIRED' } });
    expect((await bed.app.runCleanup()).expired).toBe(0);

    bed.clock.advance(24 * 60 * 60_000);
    await bed.app.runCleanup();
    const gone = await remoteError(unaryCall(bed.client, 'Release', { idempotencyKey: 'short-hold' }, auth));
    expect(gone.reason).toBe('RESERVATION_NOT_FOUND');
    expect(await reserve(auth, 'short-hold', 10)).toMatchObject({ granted: true, replayed: false });
  });

  it('leaves a live hold alone', async () => {
    const auth = await as(bed, randomUUID());
    await reserve(auth, 'long-hold', 100, { ttlMs: 60_000 });
    await bed.app.runCleanup();
    expect(await rowsUsed(auth)).toBe(100);
    expect((await unaryCall(bed.client, 'Consume', { idempotencyKey: 'long-hold' }, auth)).changed).toBe(
      true,
    );
  });
});
