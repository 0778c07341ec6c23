import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { contracts, type UsageReport__Output } from '@tap/contracts';
import { createClient, GrpcStatus, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { testIdentity } from '@tap/testkit';
import { as, remoteError } from '@tap/service-testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await openTestBed('usage report');
});
afterAll(async () => bed.close());
afterEach(() => bed.clock.reset());

async function usageOf(
  tenantId: string,
  request: { apiRequestsDay?: number; apiRequestsMinute?: number } = {},
) {
  return unaryCall(bed.client, 'GetUsage', request, await as(bed, tenantId));
}

function limitsOf(report: UsageReport__Output) {
  return Object.fromEntries(report.limits.map((l) => [l.key, l.unlimited ? null : l.limit]));
}

function rateLimitsOf(report: UsageReport__Output) {
  return Object.fromEntries(report.rateLimits.map((r) => [r.key, r.limit]));
}

// The spec's "Limits" tables (resource limits and API requests); SVC Core carries Core's numbers.
const SPEC_LIMITS = {
  SUPPLIER_FREE: {
    MAX_ACTIVE_PRODUCTS: 1000,
    MAX_CONNECTIONS: 3,
    MAX_USERS: 3,
    MAX_TRACED_PRODUCTS: 0,
    BULK_UPLOAD_ROWS_MONTH: 1000,
  },
  SUPPLIER_PLUS: {
    MAX_ACTIVE_PRODUCTS: 5000,
    MAX_CONNECTIONS: 15,
    MAX_USERS: 10,
    MAX_TRACED_PRODUCTS: 0,
    BULK_UPLOAD_ROWS_MONTH: 10_000,
  },
  CORE: {
    MAX_ACTIVE_PRODUCTS: null,
    MAX_CONNECTIONS: null,
    MAX_USERS: 25,
    MAX_TRACED_PRODUCTS: 10_000,
    BULK_UPLOAD_ROWS_MONTH: 100_000,
  },
  SVC_CORE: {
    MAX_ACTIVE_PRODUCTS: null,
    MAX_CONNECTIONS: null,
    MAX_USERS: 25,
    MAX_TRACED_PRODUCTS: 10_000,
    BULK_UPLOAD_ROWS_MONTH: 100_000,
  },
  ENTERPRISE: {
    MAX_ACTIVE_PRODUCTS: null,
    MAX_CONNECTIONS: null,
    MAX_USERS: null,
    MAX_TRACED_PRODUCTS: null,
    BULK_UPLOAD_ROWS_MONTH: null,
  },
} as const;
const SPEC_RATE_LIMITS = {
  SUPPLIER_FREE: {},
  SUPPLIER_PLUS: { API_REQUESTS_DAY: 10_000, API_REQUESTS_MINUTE: 100 },
  CORE: { API_REQUESTS_DAY: 50_000, API_REQUESTS_MINUTE: 500 },
  SVC_CORE: { API_REQUESTS_DAY: 50_000, API_REQUESTS_MINUTE: 500 },
  ENTERPRISE: { API_REQUESTS_DAY: 200_000, API_REQUESTS_MINUTE: 2_000 },
} as const;
const TIER_NAMES = {
  SUPPLIER_FREE: 'Supplier Free',
  SUPPLIER_PLUS: 'Supplier Plus',
  CORE: 'Core',
  SVC_CORE: 'SVC Core',
  ENTERPRISE: 'Enterprise',
};

describe('GetUsage', () => {
  it('reports a new tenant on Supplier Free with nothing used and no API windows', async () => {
    const report = await usageOf(randomUUID());
    expect(report.tier).toEqual({ code: 'SUPPLIER_FREE', name: 'Supplier Free' });
    expect(report.limits.map((l) => l.key)).toEqual([
      'MAX_ACTIVE_PRODUCTS',
      'MAX_CONNECTIONS',
      'MAX_USERS',
      'MAX_TRACED_PRODUCTS',
      'BULK_UPLOAD_ROWS_MONTH',
    ]);
    expect(report.limits.every((l) => l.current === 0)).toBe(true);
    expect(report.rateLimits).toEqual([]);
    expect(report.warnings).toEqual([]);
  });

  it.each(Object.keys(SPEC_LIMITS) as (keyof typeof SPEC_LIMITS)[])(
    'reports the spec numbers of %s',
    async (tierCode) => {
      const tenantId = randomUUID();
      await bed.setTier(tenantId, tierCode);
      const report = await usageOf(tenantId);
      expect(report.tier).toEqual({ code: tierCode, name: TIER_NAMES[tierCode] });
      expect(limitsOf(report)).toEqual(SPEC_LIMITS[tierCode]);
      expect(rateLimitsOf(report)).toEqual(SPEC_RATE_LIMITS[tierCode]);
      for (const limit of report.limits) expect(limit.unlimited).toBe(limit.limit === undefined);
    },
  );

  it('sees a tier set by the operator on the very next call', async () => {
    const tenantId = randomUUID();
    expect((await usageOf(tenantId)).tier?.code).toBe('SUPPLIER_FREE');
    await bed.setTier(tenantId, 'CORE');
    expect((await usageOf(tenantId)).tier?.code).toBe('CORE');
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    expect((await usageOf(tenantId)).tier?.code).toBe('SUPPLIER_PLUS');
  });

  it('ends the API windows at the next UTC midnight and the next whole UTC minute', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    bed.clock.set('2026-11-30T23:59:30.500Z');
    const report = await usageOf(tenantId, { apiRequestsDay: 120, apiRequestsMinute: 7 });
    expect(report.rateLimits).toEqual([
      { key: 'API_REQUESTS_DAY', current: 120, limit: 10_000, resetsAt: '2026-12-01T00:00:00.000Z' },
      { key: 'API_REQUESTS_MINUTE', current: 7, limit: 100, resetsAt: '2026-12-01T00:00:00.000Z' },
    ]);
    bed.clock.set('2026-11-15T10:20:30.000Z');
    const later = await usageOf(tenantId);
    expect(later.rateLimits.map((r) => r.resetsAt)).toEqual([
      '2026-11-16T00:00:00.000Z',
      '2026-11-15T10:21:00.000Z',
    ]);
  });

  it('reports the counts each call passes, and a new minute window, from one unchanged view', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    bed.clock.set('2026-11-15T10:20:30.000Z');
    const minute = async (apiRequestsMinute: number) =>
      (await usageOf(tenantId, { apiRequestsDay: 5, apiRequestsMinute })).rateLimits[1];
    expect(await minute(1)).toMatchObject({ current: 1, resetsAt: '2026-11-15T10:21:00.000Z' });
    expect(await minute(1)).toMatchObject({ current: 1, resetsAt: '2026-11-15T10:21:00.000Z' });
    expect(await minute(2)).toMatchObject({ current: 2, resetsAt: '2026-11-15T10:21:00.000Z' });
    bed.clock.set('2026-11-15T10:21:00.000Z');
    expect(await minute(1)).toMatchObject({ current: 1, resetsAt: '2026-11-15T10:22:00.000Z' });
  });

  it('starts the monthly rows again at 0 when the UTC month changes', async () => {
    const tenantId = randomUUID();
    const auth = await as(bed, tenantId);
    bed.clock.set('2026-11-30T23:59:59.000Z');
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 300, idempotencyKey: 'nov-import' },
      auth,
    );
    await unaryCall(bed.client, 'Consume', { idempotencyKey: 'nov-import' }, auth);
    const rows = async () =>
      (await usageOf(tenantId)).limits.find((l) => l.key === 'BULK_UPLOAD_ROWS_MONTH')?.current;
    expect(await rows()).toBe(300);
    bed.clock.set('2026-12-01T00:00:00.000Z');
    expect(await rows()).toBe(0);
  });

  it('warns from 80% of a limit and when it is reached, REACHED first', async () => {
    const tenantId = randomUUID();
    const auth = await as(bed, tenantId);
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 800, idempotencyKey: 'big-import' },
      auth,
    );
    const approaching = await usageOf(tenantId);
    expect(approaching.warnings).toEqual([
      {
        limit: 'BULK_UPLOAD_ROWS_MONTH',
        level: 'APPROACHING',
        current: 800,
        max: 1000,
        percentUsed: 80,
        message: 'You have used 80% of your limit of 1,000 bulk upload rows per month.',
      },
    ]);
    await unaryCall(
      bed.client,
      'Reserve',
      { action: 'CREATE_CONNECTION', units: 3, idempotencyKey: 'three-partners' },
      auth,
    );
    const reached = await usageOf(tenantId);
    expect(reached.warnings.map((w) => [w.limit, w.level, w.percentUsed])).toEqual([
      ['MAX_CONNECTIONS', 'REACHED', 100],
      ['BULK_UPLOAD_ROWS_MONTH', 'APPROACHING', 80],
    ]);
    expect(reached.warnings[0]?.message).toBe('You have reached your limit of 3 connections.');
  });

  it('warns about the day window from the counts the caller passes, never about the minute window', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    const report = await usageOf(tenantId, { apiRequestsDay: 9_000, apiRequestsMinute: 100 });
    expect(report.warnings.map((w) => [w.limit, w.level])).toEqual([['API_REQUESTS_DAY', 'APPROACHING']]);
  });

  it('refuses a negative API request count', async () => {
    const error = await remoteError(usageOf(randomUUID(), { apiRequestsDay: -1 }));
    expect([error.grpcStatus, error.reason]).toEqual([GrpcStatus.INVALID_ARGUMENT, 'INVALID_USAGE_COUNT']);
  });
});

describe('authentication and SetTier', () => {
  it('refuses a call without a token, and one with a token from another key', async () => {
    const missing = await remoteError(unaryCall(bed.client, 'GetUsage', {}));
    expect([missing.grpcStatus, missing.reason]).toEqual([GrpcStatus.UNAUTHENTICATED, 'TOKEN_MISSING']);
    const forged = await remoteError(
      unaryCall(bed.client, 'GetUsage', {}, { authorization: 'Bearer abc.def.ghi' }),
    );
    expect([forged.grpcStatus, forged.reason]).toEqual([GrpcStatus.UNAUTHENTICATED, 'TOKEN_INVALID']);
  });

  it('lets only the operator certificate set a tier, and only to a known tier', async () => {
    const tenantId = randomUUID();
    // The gateway's certificate, even with a tenant OWNER's token, does not reach SetTier.
    const asGateway = await remoteError(
      unaryCall(bed.gatewayClient, 'SetTier', { tenantId, tierCode: 'ENTERPRISE' }, await as(bed, tenantId)),
    );
    expect(asGateway.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
    const unknown = await remoteError(bed.setTier(tenantId, 'PLATINUM'));
    expect([unknown.grpcStatus, unknown.reason]).toEqual([GrpcStatus.INVALID_ARGUMENT, 'UNKNOWN_TIER']);
    const badTenant = await remoteError(bed.setTier('', 'CORE'));
    expect([badTenant.grpcStatus, badTenant.reason]).toEqual([
      GrpcStatus.INVALID_ARGUMENT,
      'INVALID_TENANT_ID',
    ]);
    expect((await usageOf(tenantId)).tier?.code).toBe('SUPPLIER_FREE');
  });

  it("refuses a signed-out session's token called over gRPC with the gateway's identity", async () => {
    const tenantId = randomUUID();
    const bearer = await as(bed, tenantId);
    await expect(unaryCall(bed.gatewayClient, 'GetUsage', {}, bearer)).resolves.toBeDefined();
    const { sessionId } = await bed.tokens.verifier.verify(bearer.authorization.slice('Bearer '.length));
    await bed.revocations.revoke(sessionId);
    const refused = await remoteError(unaryCall(bed.gatewayClient, 'GetUsage', {}, bearer));
    expect([refused.grpcStatus, refused.reason]).toEqual([GrpcStatus.UNAUTHENTICATED, 'TOKEN_INVALID']);
  });

  it('refuses adoption both a tier read (it learns tiers by event) and a reservation, and refuses a plain client', async () => {
    const adoption = createClient(
      contracts().entitlements.EntitlementsService,
      bed.address,
      tlsFromPem(await testIdentity('adoption')),
    );
    try {
      const tenantId = randomUUID();
      const tier = await remoteError(unaryCall(adoption, 'GetTier', {}, await as(bed, tenantId)));
      expect(tier.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
      const reserve = await remoteError(
        unaryCall(
          adoption,
          'Reserve',
          { action: 'dpp.publish', units: 1, idempotencyKey: 'k-1' },
          await as(bed, tenantId),
        ),
      );
      expect(reserve.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
    } finally {
      adoption.close();
    }
  });
});
