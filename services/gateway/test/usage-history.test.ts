import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

let bed: GatewayBed;
let base: string;
beforeAll(async () => {
  bed = await openGatewayBed('gateway usage history');
  base = `http://127.0.0.1:${(bed.gateway.server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => bed.close());

interface HistoryBody {
  success: boolean;
  data: {
    key: string;
    granularity: string;
    to: string;
    limit: number | null;
    unlimited: boolean;
    points: { date: string; value: number }[];
  };
  error: { code: string; details: unknown };
}
interface ReportBody {
  data: {
    limits: Record<string, { current: number }>;
    rateLimits: Record<string, { current: number }>;
  };
}

const today = () => new Date().toISOString().slice(0, 10);

async function get(tenantId: string, query: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}/entitlements/usage/history?${query}`, {
    headers: { authorization: await bed.bearer(tenantId), ...headers },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return {
    status: response.status,
    headers: response.headers,
    text,
    body: json ? (JSON.parse(text) as HistoryBody) : undefined,
  };
}

describe('GET /entitlements/usage/history', () => {
  it("ends every key's 30 days on the usage report's number", async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    const authorization = await bed.bearer(tenantId);
    await unaryCall(
      bed.entitlements,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 250, idempotencyKey: 'import-1' },
      { authorization },
    );
    bed.useApiRequestCounts(async (id) => (id === tenantId ? { day: 37, minute: 2 } : undefined));
    try {
      const usage = await bed.request('GET', '/api/v1/entitlements/usage', { headers: { authorization } });
      const report = (usage.body as ReportBody).data;
      const expected: Record<string, number> = {
        ...Object.fromEntries(Object.entries(report.limits).map(([key, l]) => [key, l.current])),
        API_REQUESTS_DAY: report.rateLimits['API_REQUESTS_DAY']?.current ?? -1,
      };
      expect(expected).toMatchObject({ BULK_UPLOAD_ROWS_MONTH: 250, API_REQUESTS_DAY: 37 });
      for (const [key, current] of Object.entries(expected)) {
        const { status, body } = await get(tenantId, `key=${key}`);
        if (!body) throw new Error('no JSON body');
        expect(status).toBe(200);
        expect(body.success).toBe(true);
        expect(body.data.points).toHaveLength(30);
        expect(body.data.points.at(-1)).toEqual({ date: today(), value: current });
        expect(body.data.to).toBe(today());
      }
      const rows = await get(tenantId, 'key=BULK_UPLOAD_ROWS_MONTH');
      expect(rows.body?.data).toMatchObject({
        key: 'BULK_UPLOAD_ROWS_MONTH',
        granularity: 'day',
        limit: 10_000,
        unlimited: false,
      });
    } finally {
      bed.useApiRequestCounts(undefined);
    }
  });

  it('answers CSV for format=csv and for Accept: text/csv', async () => {
    const tenantId = randomUUID();
    const byParam = await get(tenantId, `key=MAX_USERS&from=${today()}&format=csv`);
    expect(byParam.status).toBe(200);
    expect(byParam.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(byParam.headers.get('content-disposition')).toBe(
      `attachment; filename="usage-history-MAX_USERS-${today()}-${today()}.csv"`,
    );
    expect(byParam.text).toBe(`key,date,value,limit\r\nMAX_USERS,${today()},0,3\r\n`);
    const byAccept = await get(tenantId, `key=MAX_USERS&from=${today()}`, { accept: 'text/csv' });
    expect([byAccept.headers.get('content-type'), byAccept.text]).toEqual([
      byParam.headers.get('content-type'),
      byParam.text,
    ]);
    // The parameter wins over the header.
    const json = await get(tenantId, `key=MAX_USERS&from=${today()}&format=json`, { accept: 'text/csv' });
    expect(json.body?.data.points).toEqual([{ date: today(), value: 0 }]);
  });

  it.each([
    ['an unknown key', 'key=MAX_WIDGETS'],
    ['no key', 'from=2026-01-01'],
    ['the minute window', 'key=API_REQUESTS_MINUTE'],
    ['a date in another shape', 'key=MAX_USERS&from=01/02/2026'],
    ['a day that does not exist', 'key=MAX_USERS&from=2026-02-30'],
    ['a month that does not exist', 'key=MAX_USERS&to=2026-13'],
    ['from after to', 'key=MAX_USERS&from=2026-01-02&to=2026-01-01'],
    ['a range over the 13 months kept', 'key=MAX_USERS&from=2020-01-01'],
    ['a day after today', 'key=MAX_USERS&to=2999-01-01'],
    ['an unknown granularity', 'key=MAX_USERS&granularity=week'],
    ['an unknown format', 'key=MAX_USERS&format=xml'],
  ])('refuses %s with 400 VALIDATION_FAILED', async (_case, query) => {
    const { status, body } = await get(randomUUID(), query);
    expect(status).toBe(400);
    expect(body).toEqual({
      success: false,
      error: { code: 'VALIDATION_FAILED', message: expect.any(String), details: expect.any(Array) },
    });
  });

  it('names the refused parameter of a range check', async () => {
    const { body } = await get(randomUUID(), 'key=MAX_USERS&from=2026-01-02&to=2026-01-01');
    expect(body?.error.details).toEqual([{ path: '/from', message: expect.stringContaining('after') }]);
  });

  it('asks for a token', async () => {
    const response = await fetch(`${base}/entitlements/usage/history?key=MAX_USERS`, {
      signal: AbortSignal.timeout(10_000),
    });
    expect(response.status).toBe(401);
  });
});
