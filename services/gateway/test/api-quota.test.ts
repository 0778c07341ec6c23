import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
}

describe('API request quotas per tier', () => {
  let bed: GatewayBed;

  beforeAll(async () => {
    bed = await openGatewayBed('gateway quotas', { quotas: true, tierCacheMs: 200 });
  });

  afterAll(async () => {
    await bed?.close();
  });

  async function tenantOn(tier: string): Promise<{ tenantId: string; bearer: string }> {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, tier);
    return { tenantId, bearer: await bed.clientBearer(tenantId) };
  }

  const usage = (bearer: string): Promise<Reply> =>
    bed.request('GET', '/api/v1/entitlements/usage', { headers: { authorization: bearer } });

  it.each([
    ['SUPPLIER_PLUS', 100],
    ['CORE', 500],
    ['SVC_CORE', 500],
    ['ENTERPRISE', 2_000],
  ])(
    'meters an integrator on %s with its per-minute limit of %i and says so in the headers',
    async (tier, perMinute) => {
      const { bearer } = await tenantOn(tier);
      const response = await usage(bearer);
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe(String(perMinute));
      expect(response.headers.get('x-ratelimit-remaining')).toBe(String(perMinute - 1));
      expect(response.headers.get('x-ratelimit-policy')).toBe('api-per-minute');
      expect(Number(response.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    },
  );

  it('refuses the request over the limit with 429, Retry-After and the spec body, and admits exactly the limit', async () => {
    const { bearer } = await tenantOn('SUPPLIER_PLUS');
    const replies = await Promise.all(Array.from({ length: 130 }, () => usage(bearer)));
    const admitted = replies.filter((r) => r.status === 200);
    const refused = replies.filter((r) => r.status === 429);
    expect(admitted).toHaveLength(100);
    expect(refused).toHaveLength(30);
    const sample = refused[0]!;
    const retryAfter = Number(sample.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(61);
    expect(sample.body).toEqual({ error: 'RATE_LIMIT_EXCEEDED', message: expect.any(String), retryAfter });
    expect(sample.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('admits exactly the limit across several gateway replicas sharing one Redis', async () => {
    const replicas = [
      bed,
      await openGatewayBed('gateway quotas b', { quotas: true, limiterKeyPrefix: bed.limiterKeyPrefix }),
      await openGatewayBed('gateway quotas c', { quotas: true, limiterKeyPrefix: bed.limiterKeyPrefix }),
    ];
    try {
      const tenantId = randomUUID();
      const bearers = await Promise.all(
        replicas.map(async (replica) => {
          await replica.setTier(tenantId, 'SUPPLIER_PLUS');
          return replica.clientBearer(tenantId);
        }),
      );
      const replies = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          replicas[i % 3]!.request('GET', '/api/v1/entitlements/usage', {
            headers: { authorization: bearers[i % 3]! },
          }),
        ),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(100);
      expect(replies.filter((r) => r.status === 429)).toHaveLength(200);
    } finally {
      await replicas[1]!.close();
      await replicas[2]!.close();
    }
  });

  it('reports the counted API requests in the usage report', async () => {
    const { bearer } = await tenantOn('CORE');
    for (let i = 0; i < 3; i += 1) await usage(bearer);
    const report = (await usage(bearer)).body as {
      data: { rateLimits: Record<string, { current: number; limit: number }> };
    };
    expect(report.data.rateLimits['API_REQUESTS_DAY']).toMatchObject({ limit: 50_000 });
    expect(report.data.rateLimits['API_REQUESTS_DAY']!.current).toBeGreaterThanOrEqual(3);
  });

  it('gives Supplier Free integrators a clear 403 with the upgrade context, not a bare 403', async () => {
    const { bearer } = await tenantOn('SUPPLIER_FREE');
    const response = await usage(bearer);
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({
      success: false,
      error: {
        code: 'API_ACCESS_NOT_IN_TIER',
        details: {
          upgradeContext: {
            capability: 'API_ACCESS',
            upgradeAvailable: true,
            targetTier: { code: 'SUPPLIER_PLUS' },
          },
        },
      },
    });
  });

  it('does not meter first-party user sessions', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_FREE');
    const response = await usage(await bed.bearer(tenantId));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('applies a tier change within a second', async () => {
    const { tenantId, bearer } = await tenantOn('SUPPLIER_FREE');
    expect((await usage(bearer)).status).toBe(403);
    await bed.setTier(tenantId, 'ENTERPRISE');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const response = await usage(bearer);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-ratelimit-limit')).toBe('2000');
  });
});
