import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GrpcStatus, unaryCall } from '@tap/grpc-kit';
import { as, remoteError } from '@tap/service-testkit';
import { buildUpgradeContext, getTier } from '../src/domain/index.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await openTestBed('can and upgrade');
});
afterAll(async () => bed.close());

async function can(tenantId: string, action: string, resourceCount: number) {
  return unaryCall(bed.client, 'Can', { action, resourceCount }, await as(bed, tenantId));
}

async function upgradeContext(tenantId: string, capability: string, frictionType?: string) {
  return unaryCall(
    bed.client,
    'GetUpgradeContext',
    { capability, ...(frictionType ? { frictionType } : {}) },
    await as(bed, tenantId),
  );
}

describe('Can', () => {
  it('allows a bulk upload that fits the rows left this month, with no reason and no details', async () => {
    const decision = await can(randomUUID(), 'BULK_UPLOAD', 1000);
    expect(decision.allowed).toBe(true);
    expect(decision.reason).toBeUndefined();
    expect(decision.details).toBeNull();
  });

  it('refuses one that does not fit with LIMIT_EXCEEDED and the rows still available', async () => {
    const tenantId = randomUUID();
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 400, idempotencyKey: 'first-import' },
      await as(bed, tenantId),
    );
    const decision = await can(tenantId, 'BULK_UPLOAD', 700);
    expect(decision).toMatchObject({
      allowed: false,
      reason: 'LIMIT_EXCEEDED',
      details: { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 400, requested: 700, available: 600 },
    });
    expect((await can(tenantId, 'BULK_UPLOAD', 600)).allowed).toBe(true);
  });

  it('answers the same question again from the usage as it is now (a reserve ends the shared answer)', async () => {
    const tenantId = randomUUID();
    expect((await can(tenantId, 'BULK_UPLOAD', 700)).allowed).toBe(true);
    expect((await can(tenantId, 'BULK_UPLOAD', 700)).allowed).toBe(true);
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 400, idempotencyKey: 'between-reads' },
      await as(bed, tenantId),
    );
    expect(await can(tenantId, 'BULK_UPLOAD', 700)).toMatchObject({
      allowed: false,
      details: { current: 400, available: 600 },
    });
  });

  it('answers a probe of 0 as allowed while within the limit', async () => {
    expect((await can(randomUUID(), 'CREATE_CONNECTION', 0)).allowed).toBe(true);
  });

  it('refuses an action whose capability the tier lacks, before looking at the limit', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    const decision = await can(tenantId, 'TRACE_PRODUCT', 1);
    expect(decision.allowed).toBe(false);
    expect(decision.reason).toBe('CAPABILITY_NOT_IN_TIER');
    expect(decision.details).toBeNull();
    await bed.setTier(tenantId, 'CORE');
    expect((await can(tenantId, 'TRACE_PRODUCT', 1)).allowed).toBe(true);
  });

  it('never refuses on an unlimited key', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    expect((await can(tenantId, 'CREATE_PRODUCT', Number.MAX_SAFE_INTEGER)).allowed).toBe(true);
  });

  it('rejects an unknown action and a negative count as INVALID_ARGUMENT with the domain code', async () => {
    const tenantId = randomUUID();
    const unknown = await remoteError(can(tenantId, 'FLY', 1));
    expect([unknown.grpcStatus, unknown.reason, unknown.details]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'UNKNOWN_ACTION',
      { action: 'FLY' },
    ]);
    const negative = await remoteError(can(tenantId, 'BULK_UPLOAD', -5));
    expect([negative.grpcStatus, negative.reason]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'INVALID_RESOURCE_COUNT',
    ]);
  });
});

describe('GetUpgradeContext', () => {
  it('offers the next tier on the path to a middle-tier tenant', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    const context = await upgradeContext(tenantId, 'TRACEABILITY');
    expect(context.targetTier).toEqual({ code: 'CORE', name: 'Core' });
    expect(context).toMatchObject(buildUpgradeContext(getTier('SUPPLIER_PLUS'), 'TRACEABILITY'));
  });

  it('offers a free tenant Supplier Plus for expected data sets (the spec example)', async () => {
    const context = await upgradeContext(randomUUID(), 'EXPECTED_DATA_SETS');
    expect(context.upgradeAvailable).toBe(true);
    expect(context.targetTier).toEqual({ code: 'SUPPLIER_PLUS', name: 'Supplier Plus' });
  });

  it('classifies limit and rate-limit keys as LIMIT and RATE_LIMIT friction', async () => {
    const tenantId = randomUUID();
    expect((await upgradeContext(tenantId, 'MAX_CONNECTIONS')).frictionType).toBe('LIMIT');
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    expect((await upgradeContext(tenantId, 'API_REQUESTS_DAY', 'RATE_LIMIT')).frictionType).toBe(
      'RATE_LIMIT',
    );
  });

  it('has no upgrade and no target tier at the top tier', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    const context = await upgradeContext(tenantId, 'API_REQUESTS_DAY');
    expect(context.upgradeAvailable).toBe(false);
    expect(context.targetTier).toBeNull();
    expect(context.currentTier).toEqual({ code: 'ENTERPRISE', name: 'Enterprise' });
    expect(context.cta).toBe('Contact your account team');
  });

  it('says a capability is included when the tier already has it', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const context = await upgradeContext(tenantId, 'EXPECTED_DATA_SETS');
    expect(context.upgradeAvailable).toBe(false);
    expect(context.targetTier).toBeNull();
    expect(context.headline).toBe('Expected data sets is included in your Core plan');
  });

  it('answers from the tier as it is now: the shared answer of one assignment ends with a tier change', async () => {
    const tenantId = randomUUID();
    const tier = async () => (await unaryCall(bed.client, 'GetTier', {}, await as(bed, tenantId))).tierCode;
    expect((await upgradeContext(tenantId, 'TRACEABILITY')).currentTier?.code).toBe('SUPPLIER_FREE');
    expect((await upgradeContext(tenantId, 'TRACEABILITY')).currentTier?.code).toBe('SUPPLIER_FREE');
    expect(await tier()).toBe('SUPPLIER_FREE');
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    expect((await upgradeContext(tenantId, 'TRACEABILITY')).currentTier?.code).toBe('SUPPLIER_PLUS');
    expect(await tier()).toBe('SUPPLIER_PLUS');
    // Another capability of the same assignment is its own answer.
    expect((await upgradeContext(tenantId, 'EXPECTED_DATA_SETS')).capability).toBe('EXPECTED_DATA_SETS');
  });

  it('rejects an unknown key and a friction type that contradicts the key', async () => {
    const tenantId = randomUUID();
    const unknown = await remoteError(upgradeContext(tenantId, 'TELEPORTATION'));
    expect([unknown.grpcStatus, unknown.reason]).toEqual([GrpcStatus.INVALID_ARGUMENT, 'UNKNOWN_CAPABILITY']);
    const mismatch = await remoteError(upgradeContext(tenantId, 'MAX_USERS', 'CAPABILITY'));
    expect([mismatch.grpcStatus, mismatch.reason]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'FRICTION_TYPE_MISMATCH',
    ]);
  });
});
