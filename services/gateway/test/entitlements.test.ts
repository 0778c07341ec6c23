import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildUpgradeContext, getTier } from '@tap/entitlements';
import { unaryCall } from '@tap/grpc-kit';
import { BODY_LIMIT_BYTES, openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

let bed: GatewayBed;
beforeAll(async () => {
  bed = await openGatewayBed('gateway entitlements');
});
afterAll(async () => bed.close());

async function call(
  tenantId: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
) {
  const answer = await bed.request(method, path, {
    ...options,
    headers: { authorization: await bed.bearer(tenantId), ...options.headers },
  });
  return { status: answer.status, body: answer.body as Record<string, unknown> };
}

const can = (tenantId: string, body: string, headers: Record<string, string> = {}) =>
  call(tenantId, 'POST', '/api/v1/entitlements/can', {
    body,
    headers: { 'content-type': 'application/json', ...headers },
  });

function generalError(code: string) {
  return { success: false, error: expect.objectContaining({ code, message: expect.any(String) }) };
}

describe('GET /entitlements/usage', () => {
  it('answers the spec Usage report of a free tenant: every limit, no API windows, no warnings', async () => {
    const { status, body } = await call(randomUUID(), 'GET', '/api/v1/entitlements/usage');
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        tier: { code: 'SUPPLIER_FREE', name: 'Supplier Free' },
        limits: {
          MAX_ACTIVE_PRODUCTS: { current: 0, limit: 1000, unlimited: false },
          MAX_CONNECTIONS: { current: 0, limit: 3, unlimited: false },
          MAX_USERS: { current: 0, limit: 3, unlimited: false },
          MAX_TRACED_PRODUCTS: { current: 0, limit: 0, unlimited: false },
          BULK_UPLOAD_ROWS_MONTH: { current: 0, limit: 1000, unlimited: false },
        },
        rateLimits: {},
        warnings: [],
      },
    });
  });

  it('shows unlimited keys as limit null, and the API windows with the limiter counts', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    bed.useApiRequestCounts(async (id) => (id === tenantId ? { day: 45_000, minute: 12 } : undefined));
    try {
      const { status, body } = await call(tenantId, 'GET', '/api/v1/entitlements/usage');
      expect(status).toBe(200);
      const data = body['data'] as Record<string, Record<string, unknown>>;
      expect(data['limits']?.['MAX_ACTIVE_PRODUCTS']).toEqual({ current: 0, limit: null, unlimited: true });
      expect(data['rateLimits']).toEqual({
        API_REQUESTS_DAY: {
          current: 45_000,
          limit: 50_000,
          resetsAt: expect.stringMatching(/T00:00:00\.000Z$/),
        },
        API_REQUESTS_MINUTE: { current: 12, limit: 500, resetsAt: expect.stringMatching(/:00\.000Z$/) },
      });
      expect(data['warnings']).toEqual([
        expect.objectContaining({
          limit: 'API_REQUESTS_DAY',
          level: 'APPROACHING',
          current: 45_000,
          max: 50_000,
          percentUsed: 90,
        }),
      ]);
    } finally {
      bed.useApiRequestCounts(undefined);
    }
  });

  it('still answers, with counts of 0, when the limiter cannot be read', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    bed.useApiRequestCounts(() => Promise.reject(new Error('redis down')));
    try {
      const { status, body } = await call(tenantId, 'GET', '/api/v1/entitlements/usage');
      expect(status).toBe(200);
      expect(
        (body['data'] as { rateLimits: Record<string, { current: number }> }).rateLimits['API_REQUESTS_DAY']
          ?.current,
      ).toBe(0);
    } finally {
      bed.useApiRequestCounts(undefined);
    }
  });

  it('refuses a missing or bad bearer token with 401 invalid_token', async () => {
    const missing = await bed.request('GET', '/api/v1/entitlements/usage');
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ error: 'invalid_token', error_description: expect.any(String) });
    const bad = await bed.request('GET', '/api/v1/entitlements/usage', {
      headers: { authorization: 'Bearer not.a.token' },
    });
    expect(bad.status).toBe(401);
  });
});

describe('POST /entitlements/can', () => {
  it('answers allowed with reason null and no details', async () => {
    const { status, body } = await can(
      randomUUID(),
      JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 1000 }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: { allowed: true, reason: null } });
  });

  it('answers a limit refusal with 200, success true, LIMIT_EXCEEDED and the rows available', async () => {
    const tenantId = randomUUID();
    await unaryCall(
      bed.entitlements,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 400, idempotencyKey: 'rows' },
      { authorization: await bed.bearer(tenantId) },
    );
    const { status, body } = await can(
      tenantId,
      JSON.stringify({ action: 'BULK_UPLOAD', resourceCount: 700 }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: {
        allowed: false,
        reason: 'LIMIT_EXCEEDED',
        details: { limit: 'BULK_UPLOAD_ROWS_MONTH', current: 400, requested: 700, available: 600 },
      },
    });
  });

  it('answers a missing capability with 200 and CAPABILITY_NOT_IN_TIER, without details', async () => {
    const { status, body } = await can(
      randomUUID(),
      JSON.stringify({ action: 'TRACE_PRODUCT', resourceCount: 1 }),
    );
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: { allowed: false, reason: 'CAPABILITY_NOT_IN_TIER' } });
  });

  // The document lists the actions (an enum of @tap/contracts' CAN_ACTION_NAMES): an unknown one
  // is the schema's refusal, before entitlements is asked.
  it('refuses an unknown action with 400 VALIDATION_FAILED naming /action', async () => {
    const { status, body } = await can(
      randomUUID(),
      JSON.stringify({ action: 'TELEPORT', resourceCount: 1 }),
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: '/action' })] },
    });
  });

  it.each([
    ['a missing resourceCount', { action: 'BULK_UPLOAD' }],
    ['a missing action', { resourceCount: 1 }],
    ['a fractional resourceCount', { action: 'BULK_UPLOAD', resourceCount: 1.5 }],
    ['a resourceCount given as a string', { action: 'BULK_UPLOAD', resourceCount: '3' }],
    ['a negative resourceCount', { action: 'BULK_UPLOAD', resourceCount: -1 }],
    ['a resourceCount above 2^53 - 1', { action: 'BULK_UPLOAD', resourceCount: 2 ** 60 }],
    ['an empty action', { action: '', resourceCount: 1 }],
    ['an unexpected property', { action: 'BULK_UPLOAD', resourceCount: 1, tenantId: 'someone-else' }],
    ['a JSON array', [{ action: 'BULK_UPLOAD', resourceCount: 1 }]],
    ['JSON null', null],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_what, payload) => {
    const { status, body } = await can(randomUUID(), JSON.stringify(payload));
    expect(status).toBe(400);
    expect(body).toEqual(generalError('VALIDATION_FAILED'));
  });

  it('refuses a body that is not JSON with 400 INVALID_JSON', async () => {
    for (const payload of ['{"action": "BULK_UPLOAD", "resourceCount": ', 'action=BULK_UPLOAD']) {
      const { status, body } = await can(randomUUID(), payload);
      expect(status).toBe(400);
      expect(body).toEqual(generalError('INVALID_JSON'));
    }
  });

  // An empty JSON body is "no body" (body-less POSTs, issue #11); this route needs one.
  it('refuses an empty JSON body with 400 VALIDATION_FAILED', async () => {
    const { status, body } = await can(randomUUID(), '');
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it.each([
    'text/plain',
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ])('refuses content type %s with 415', async (contentType) => {
    const { status, body } = await can(randomUUID(), '{"action":"BULK_UPLOAD","resourceCount":1}', {
      'content-type': contentType,
    });
    expect(status).toBe(415);
    expect(body).toEqual(generalError('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('refuses a request without a body as a validation failure', async () => {
    const { status, body } = await call(randomUUID(), 'POST', '/api/v1/entitlements/can');
    expect(status).toBe(400);
    expect(body).toEqual(generalError('VALIDATION_FAILED'));
  });

  it('refuses a body above the limit with 413 before parsing it', async () => {
    const payload = JSON.stringify({
      action: 'BULK_UPLOAD',
      resourceCount: 1,
      padding: 'x'.repeat(BODY_LIMIT_BYTES),
    });
    const { status, body } = await can(randomUUID(), payload);
    expect(status).toBe(413);
    expect(body).toEqual(generalError('BODY_TOO_LARGE'));
  });
});

describe('GET /entitlements/upgrade-context', () => {
  it('answers the spec Upgrade context with the target tier at a middle tier', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    const { status, body } = await call(
      tenantId,
      'GET',
      '/api/v1/entitlements/upgrade-context?capability=TRACEABILITY',
    );
    expect(status).toBe(200);
    const data = body['data'] as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual([
      'capability',
      'cta',
      'currentTier',
      'featureHighlights',
      'frictionType',
      'headline',
      'targetTier',
      'upgradeAvailable',
    ]);
    expect(data['targetTier']).toEqual({ code: 'CORE', name: 'Core' });
    expect(data).toEqual(buildUpgradeContext(getTier('SUPPLIER_PLUS'), 'TRACEABILITY'));
  });

  it('omits targetTier at the top tier', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'ENTERPRISE');
    const { status, body } = await call(
      tenantId,
      'GET',
      '/api/v1/entitlements/upgrade-context?capability=API_REQUESTS_DAY',
    );
    expect(status).toBe(200);
    const data = body['data'] as Record<string, unknown>;
    expect(data).toMatchObject({
      capability: 'API_REQUESTS_DAY',
      frictionType: 'RATE_LIMIT',
      upgradeAvailable: false,
      currentTier: { code: 'ENTERPRISE', name: 'Enterprise' },
    });
    expect(data).not.toHaveProperty('targetTier');
  });

  it('refuses an unknown capability with 400 VALIDATION_FAILED naming /capability', async () => {
    const { status, body } = await call(
      randomUUID(),
      'GET',
      '/api/v1/entitlements/upgrade-context?capability=WARP_DRIVE',
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_FAILED', details: [expect.objectContaining({ path: '/capability' })] },
    });
  });

  it.each(['', '?capability=', '?capability=A&capability=B', `?capability=${'X'.repeat(65)}`])(
    'refuses the query %s with 400 VALIDATION_FAILED',
    async (query) => {
      const { status, body } = await call(
        randomUUID(),
        'GET',
        `/api/v1/entitlements/upgrade-context${query}`,
      );
      expect(status).toBe(400);
      expect(body).toEqual(generalError('VALIDATION_FAILED'));
    },
  );
});
