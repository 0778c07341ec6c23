import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createTapClient, type BackOffOptions, type RetryEvent, type TapClient } from '@tap/client';
import { apiUsage } from '@tap/client/examples/api-usage';
import { recordingTransport, type SentRequest } from './support/client-transport.js';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';

/** Supplier Plus: 100 API requests a minute (spec "Limits > API requests"). */
const PER_MINUTE = 100;
const BATCH = 10;

// A real 429 from the real limiter: the services run as processes (main.ts wires the tier quotas).
describe('@tap/client backs off on 429 (spec: Retry-After, else 1 s doubling, bounded)', () => {
  let stack: ProcessStack;

  beforeAll(async () => {
    stack = await startProcessStack('client_backoff');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  /** An integrator of a fresh Supplier Plus tenant, its calls and waits recorded instead of slept. */
  async function integrator(
    name: string,
    backOff?: BackOffOptions,
  ): Promise<{
    tap: TapClient;
    sent: SentRequest[];
    waits: number[];
    retries: RetryEvent[];
    clientId: string;
    clientSecret: string;
  }> {
    const { tenantId, bearer } = await stack.createTenant(name);
    await stack.setTier(tenantId, 'SUPPLIER_PLUS');
    const owner = createTapClient({ baseUrl: `${stack.base}/api/v1`, auth: { kind: 'none' } });
    const created = await owner.POST('/oauth/clients', {
      // products:read besides: the README's integration asks for it.
      body: { name: 'busy', scopes: ['dpp:read', 'products:read'] },
      headers: { authorization: bearer },
    });
    expect(created.response.status).toBe(201);
    const { clientId, clientSecret } = created.data!.data;
    const transport = recordingTransport();
    const waits: number[] = [];
    const retries: RetryEvent[] = [];
    const tap = createTapClient({
      baseUrl: `${stack.base}/api/v1`,
      auth: { kind: 'clientCredentials', clientId, clientSecret, scopes: ['dpp:read'] },
      fetch: transport.fetch,
      ...(backOff ? { backOff } : {}),
      // The waits are asserted, not slept through: Retry-After here is up to a minute.
      sleep: async (ms) => {
        waits.push(ms);
      },
      onRetry: (event) => retries.push(event),
    });
    return { tap, sent: transport.sent, waits, retries, clientId, clientSecret };
  }

  async function spendQuota(tap: TapClient): Promise<void> {
    for (let done = 0; done < PER_MINUTE; done += BATCH) {
      const answers = await Promise.all(Array.from({ length: BATCH }, () => tap.GET('/entitlements/usage')));
      expect(answers.map((a) => a.response.status)).toEqual(Array(BATCH).fill(200));
    }
  }

  it('retries a GET after the Retry-After the limiter sent, at most 3 times, then hands the 429 back', async () => {
    const { tap, sent, waits, retries } = await integrator('Patient Integrator Ltd', { maxDelayMs: 61_000 });
    await spendQuota(tap);
    expect(sent.filter((r) => r.path === '/api/v1/oauth/token')).toHaveLength(1);
    const before = sent.length;

    const { error, response } = await tap.GET('/entitlements/usage');
    expect(response.status).toBe(429);
    expect(error).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED' });
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(sent.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(
      Array(4).fill('GET /api/v1/entitlements/usage'),
    );
    expect(retries.map((r) => [r.reason, r.retry])).toEqual([
      ['rate_limited', 1],
      ['rate_limited', 2],
      ['rate_limited', 3],
    ]);
    // Each wait is what that answer's Retry-After said (whole seconds, ≤ 61).
    expect(waits).toHaveLength(3);
    for (const wait of waits) {
      expect(wait % 1_000).toBe(0);
      expect(wait).toBeGreaterThanOrEqual(1_000);
      expect(wait).toBeLessThanOrEqual(61_000);
    }
    expect(waits[2]).toBe(retryAfter * 1_000);
  });

  it('hands a 429 back at once when Retry-After asks for longer than the cap (30 s by default)', async () => {
    const { tap, sent, waits } = await integrator('Impatient Integrator Ltd', { maxDelayMs: 500 });
    await spendQuota(tap);
    const before = sent.length;
    const { response } = await tap.GET('/entitlements/usage');
    expect(response.status).toBe(429);
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(sent.length - before).toBe(1);
    expect(waits).toEqual([]);
  });

  it('never resends a POST the limiter refused', async () => {
    const { tap, sent, waits } = await integrator('Hasty Integrator Ltd', { maxDelayMs: 61_000 });
    await spendQuota(tap);
    const before = sent.length;
    const { response } = await tap.POST('/entitlements/can', {
      body: { action: 'BULK_UPLOAD', resourceCount: 1 },
    });
    expect(response.status).toBe(429);
    expect(sent.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/v1/entitlements/can']);
    expect(waits).toEqual([]);
  });

  // packages/client/README.md's integration, run as an integrator would: a read, then the same
  // read with the minute's quota spent, which the example hands back with its Retry-After.
  it("runs the README's integration: a read, and a 429 handed back with Retry-After past its 5 s cap", async () => {
    const { tap, clientId, clientSecret } = await integrator('Readme Integrator Ltd');
    const base = `${stack.base}/api/v1`;
    expect(await apiUsage(base, clientId, clientSecret)).toMatchObject({
      tier: 'SUPPLIER_PLUS',
      apiRequestsToday: { current: expect.any(Number), limit: expect.any(Number) },
    });
    // The rest of the minute's quota (the example's read took one of it).
    let limitedOnce = false;
    for (let sent = 0; sent < PER_MINUTE && !limitedOnce; sent += BATCH) {
      const answers = await Promise.all(Array.from({ length: BATCH }, () => tap.GET('/entitlements/usage')));
      limitedOnce = answers.some((answer) => answer.response.status === 429);
    }
    expect(limitedOnce).toBe(true);
    const limited = await apiUsage(base, clientId, clientSecret);
    expect(limited).toEqual({ retryAfterS: expect.any(Number) });
    expect((limited as { retryAfterS: number }).retryAfterS).toBeGreaterThan(5);
  });
});
