import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openGatewayBed, type GatewayBed } from './support/entitlements-bed.js';

// The gateway's memo of decoded replies and their serialised answers (clients.ts,
// http/reply-json-memo.ts) through a real entitlements server: repeated reads share one answer,
// yet a change shows at once and no tenant ever gets another's.
let bed: GatewayBed;
beforeAll(async () => {
  bed = await openGatewayBed('gateway reply memo');
});
afterAll(async () => bed.close());

async function raw(bearer: string, path: string) {
  const response = await fetch(`http://127.0.0.1:${portOf(bed)}${path}`, {
    headers: { authorization: bearer },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}
const portOf = (b: GatewayBed) => (b.gateway.server.address() as { port: number }).port;
const tierOf = (text: string) => (JSON.parse(text) as { data: { tier: { code: string } } }).data.tier.code;

describe('reads through the reply memo', () => {
  it('answers repeated reads with the same bytes and the JSON content type', async () => {
    const bearer = await bed.bearer(randomUUID());
    const answers = [];
    for (let i = 0; i < 3; i += 1) answers.push(await raw(bearer, '/api/v1/entitlements/usage'));
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.type).toBe('application/json; charset=utf-8');
      expect(answer.text).toBe(answers[0]?.text);
    }
  });

  it('shows a tier change on the next read (a write, then a read through the memo)', async () => {
    const tenantId = randomUUID();
    const bearer = await bed.bearer(tenantId);
    expect(tierOf((await raw(bearer, '/api/v1/entitlements/usage')).text)).toBe('SUPPLIER_FREE');
    expect(tierOf((await raw(bearer, '/api/v1/entitlements/usage')).text)).toBe('SUPPLIER_FREE');
    await bed.setTier(tenantId, 'CORE');
    expect(tierOf((await raw(bearer, '/api/v1/entitlements/usage')).text)).toBe('CORE');
  });

  it('never answers one tenant with another’s reply, read in turn', async () => {
    const [free, core] = [randomUUID(), randomUUID()];
    await bed.setTier(core, 'CORE');
    const bearers = { [free]: await bed.bearer(free), [core]: await bed.bearer(core) };
    for (let i = 0; i < 4; i += 1) {
      expect(tierOf((await raw(bearers[free]!, '/api/v1/entitlements/usage')).text)).toBe('SUPPLIER_FREE');
      expect(tierOf((await raw(bearers[core]!, '/api/v1/entitlements/usage')).text)).toBe('CORE');
    }
  });
});
