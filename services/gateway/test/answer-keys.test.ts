import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAnswerCache } from '../src/http/answer-cache.js';
import { openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

/**
 * What entitlements' kept answers are keyed by, over a real entitlements server: every input the
 * answer depends on. The cache listens for good here (no NATS: nothing else changes the tenants)
 * and reuses an answer for ten minutes, so only a different key can bring a different answer.
 */
let bed: GatewayBed;
beforeAll(async () => {
  const answers = createAnswerCache({ reuseMs: 600_000 });
  answers.setListening(true);
  bed = await openGatewayBed('gateway answer keys', { answers });
});
afterAll(async () => bed.close());

async function data(tenantId: string, method: string, path: string, body?: string) {
  const answer = await bed.request(method, path, {
    headers: {
      authorization: await bed.bearer(tenantId),
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body } : {}),
  });
  expect(answer.status).toBe(200);
  return (answer.body as { data: Record<string, unknown> }).data;
}

describe("the gateway's kept answers of entitlements", () => {
  it('keys the usage report by the API request counts it was asked with', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    let counts = { day: 10, minute: 1 };
    bed.useApiRequestCounts(async (id) => (id === tenantId ? counts : undefined));
    try {
      const dayOf = async () => {
        const report = await data(tenantId, 'GET', '/api/v1/entitlements/usage');
        return (report['rateLimits'] as Record<string, { current: number }>)['API_REQUESTS_DAY']?.current;
      };
      expect(await dayOf()).toBe(10);
      counts = { day: 11, minute: 2 };
      expect(await dayOf()).toBe(11);
    } finally {
      bed.useApiRequestCounts(undefined);
    }
  });

  it("keys `can` by its action and resource count, and a tenant's answer is its own", async () => {
    const free = randomUUID();
    const enterprise = randomUUID();
    await bed.setTier(enterprise, 'ENTERPRISE');
    const can = (tenantId: string, resourceCount: number) =>
      data(
        tenantId,
        'POST',
        '/api/v1/entitlements/can',
        JSON.stringify({ action: 'BULK_UPLOAD', resourceCount }),
      );
    expect((await can(free, 10))['allowed']).toBe(true);
    expect((await can(free, 1_000_000))['allowed']).toBe(false);
    expect((await can(enterprise, 1_000_000))['allowed']).toBe(true);
    expect((await can(free, 1_000_000))['allowed']).toBe(false);
  });

  it('keys the upgrade context by its capability', async () => {
    const tenantId = randomUUID();
    const contextOf = async (capability: string) =>
      (await data(tenantId, 'GET', `/api/v1/entitlements/upgrade-context?capability=${capability}`))[
        'capability'
      ];
    expect(await contextOf('API_ACCESS')).toBe('API_ACCESS');
    expect(await contextOf('TRACEABILITY')).toBe('TRACEABILITY');
  });
});
