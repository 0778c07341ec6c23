import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { productCreated } from './scale.mjs';

/** Tenants made at once (each is four calls: tenant, tier, owner token, OAuth client). */
const BATCH = 16;
const PLAN = {
  title: 'Get connected',
  objectives: [{ label: 'Set up', milestoneKeys: ['company_profile_completed', 'first_product_created'] }],
};

/**
 * @typedef {Awaited<ReturnType<typeof import('../../reads/stack.mjs').startStack>>} Stack
 * @typedef {{ tenantId: string; owner: string; client: { clientId: string; clientSecret: string } }} BenchTenant
 */

/**
 * `count` ENTERPRISE tenants, each with an OWNER token and its own OAuth client (its token comes
 * from `clientTokens`, last), a short history on the bus (profile, two products, a connection, a
 * user) and a success plan, so every read answers a real document. Waits (bounded) until adoption shows each one's products.
 * @param {Stack} stack @param {ReturnType<typeof import('./scale.mjs').gatewayReader>} reader
 * @param {number} port the gateway's
 * @param {number} count @param {(text: string) => void} progress
 * @returns {Promise<BenchTenant[]>}
 */
export async function manyTenants(stack, reader, port, count, progress) {
  /** @type {BenchTenant[]} */
  const tenants = [];
  for (let i = 0; i < count; i += BATCH) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(BATCH, count - i) }, async (_, j) => {
        const made = await stack.tenantWithOwnerToken(`Bench reads ${i + j}`, 'ENTERPRISE');
        return {
          tenantId: made.tenantId,
          owner: made.bearer,
          client: await stack.oauthClient(made.tenantId),
        };
      }),
    );
    tenants.push(...batch);
    if ((i / BATCH) % 16 === 15) progress(`reads: ${tenants.length} tenants made`);
  }
  for (const t of tenants)
    await Promise.all([
      stack.publish(event(t.tenantId, 'company.profile_completed', {})),
      stack.publish(productCreated(t.tenantId, 0)),
      stack.publish(productCreated(t.tenantId, 1)),
      stack.publish(event(t.tenantId, 'connection.accepted', { connectionId: 'c1' })),
      stack.publish(event(t.tenantId, 'user.joined', { userId: 'u1' })),
    ]);
  const targetDate = new Date(Date.now() + 90 * 86_400_000).toISOString();
  for (let i = 0; i < tenants.length; i += BATCH)
    await Promise.all(
      tenants.slice(i, i + BATCH).map(async (t) => {
        const response = await fetch(`http://127.0.0.1:${port}/api/v1/tenant/adoption/success-plan`, {
          method: 'POST',
          headers: { authorization: t.owner, 'content-type': 'application/json' },
          body: JSON.stringify({ ...PLAN, targetDate }),
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) throw new Error(`success plan: ${response.status} ${await response.text()}`);
      }),
    );
  await applied(reader, tenants, progress);
  return tenants;
}

/**
 * Each tenant's client-credentials token, obtained last so none expires during the reads.
 * @param {Stack} stack @param {BenchTenant[]} tenants
 */
export async function clientTokens(stack, tenants) {
  /** @type {string[]} */
  const tokens = [];
  for (let i = 0; i < tenants.length; i += BATCH)
    tokens.push(
      ...(await Promise.all(
        // Each integration from its own address: the per-address limit of /oauth/token (120 a
        // minute) is not what is measured.
        tenants
          .slice(i, i + BATCH)
          .map((t, j) => stack.clientToken(t.client, `198.18.${(i + j) >> 8}.${(i + j) & 255}`)),
      )),
    );
  return tokens;
}

/**
 * Waits (at most 2 minutes) until coverage shows each tenant's two products; says how many did not.
 * @param {ReturnType<typeof import('./scale.mjs').gatewayReader>} reader @param {BenchTenant[]} tenants
 * @param {(text: string) => void} progress
 */
async function applied(reader, tenants, progress) {
  const deadline = Date.now() + 120_000;
  let waiting = tenants;
  while (waiting.length > 0 && Date.now() < deadline) {
    /** @type {number[]} */
    const shown = [];
    for (let i = 0; i < waiting.length; i += 64)
      shown.push(
        ...(await Promise.all(waiting.slice(i, i + 64).map((t) => reader.products(t.owner).catch(() => -1)))),
      );
    waiting = waiting.filter((_, i) => (shown[i] ?? -1) < 2);
    if (waiting.length > 0) await sleep(500);
  }
  if (waiting.length > 0)
    progress(`warning: ${waiting.length} tenants' histories not applied before the reads`);
}

/**
 * @param {string} tenantId @param {import('@tap/contracts').ProductEventKind} type
 * @param {Record<string, string>} subject
 * @returns {import('@tap/contracts').ProductEvent}
 */
function event(tenantId, type, subject) {
  return { id: randomUUID(), type, tenantId, occurredAt: new Date().toISOString(), subject, data: {} };
}

/**
 * One read per tenant with its own token, 32 at a time, as the tenants of a running deployment
 * have already made: each one's first metered request loads its quota, verifies its token and
 * sets off the services' first work for it. Timed: the first pass is a figure of its own.
 * @param {number} port the gateway's @param {string[]} authorizations @param {string} path
 */
export async function firstPass(port, authorizations, path) {
  const started = performance.now();
  /** @type {Record<string, number>} */
  const statuses = {};
  for (let i = 0; i < authorizations.length; i += 32)
    await Promise.all(
      authorizations.slice(i, i + 32).map(async (authorization) => {
        const response = await fetch(`http://127.0.0.1:${port}${path}`, {
          headers: { authorization },
          signal: AbortSignal.timeout(10_000),
        });
        await response.arrayBuffer();
        statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      }),
    );
  const ms = performance.now() - started;
  return { ms: Math.round(ms), perSecond: Math.round((authorizations.length * 1_000) / ms), statuses };
}
