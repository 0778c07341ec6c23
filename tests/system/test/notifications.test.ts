import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { verifyWebhook } from '@tap/client';
import type { DomainEvent } from '@tap/contracts';
import { event } from './support/adoption-api.js';
import { openIdentityFixtures, type IdentityFixtures } from './support/identity-fixtures.js';
import { openSse, type SseItem } from './support/sse-reader.js';
import { SYSTEM_EVENT_STREAMS, startSystem, type HttpResponse, type System } from './support/system.js';
import { waitFor } from './support/wait-for.js';
import {
  startWebhookReceiver,
  type ReceivedWebhook,
  type WebhookReceiver,
} from './support/webhook-receiver.js';

/*
 * Webhooks, the events feed and the audit log end to end (issue 24): the gateway's routes, the
 * notifications service over gRPC, its consumers on the real bus, deliveries to a real receiver
 * on loopback (WEBHOOK_DEV_ALLOWED_HOSTS), signatures checked with the client package's
 * verifyWebhook, as an integrator would.
 */

interface WebhookJson {
  id: string;
  url: string;
  types: string[];
  enabled: boolean;
  disabledReason: string | null;
}
interface DeliveryJson {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
}
interface EventJson {
  id: string;
  type: string;
  tenantId: string;
  subject: Record<string, string>;
  data: Record<string, unknown>;
}

const data = <T>(response: HttpResponse): T => (response.body as { data: T }).data;
const code = (response: HttpResponse): unknown =>
  (response.body as { error?: { code?: string } | string }).error instanceof Object
    ? (response.body as { error: { code: string } }).error.code
    : (response.body as { error?: string }).error;

describe('webhooks, the events feed and the audit log through the gateway', () => {
  let system: System;
  let fx: IdentityFixtures;
  let receiver: WebhookReceiver;
  let tenantId: string;
  let owner: Record<string, string>;
  let admin: Record<string, string>;
  let member: Record<string, string>;
  let client: Record<string, string>;
  let stranger: Record<string, string>;
  let webhook: WebhookJson;
  let secret: string;

  beforeAll(async () => {
    system = await startSystem('notify');
    fx = await openIdentityFixtures(system);
    receiver = await startWebhookReceiver();
    const account = await fx.tenantWithOwner('Notify Foods');
    tenantId = account.tenantId;
    await system.setTier(tenantId, 'CORE');
    owner = { authorization: `Bearer ${(await fx.signIn(account)).accessToken}` };
    admin = { authorization: `Bearer ${(await fx.signIn(await fx.addUser(tenantId, 'ADMIN'))).accessToken}` };
    member = {
      authorization: `Bearer ${(await fx.signIn(await fx.addUser(tenantId, 'MEMBER'))).accessToken}`,
    };
    const created = await fx.oauthClient(tenantId, ['products:read']);
    client = { authorization: `Bearer ${await fx.clientToken(created.clientId, created.clientSecret)}` };
    const other = await fx.tenantWithOwner('Stranger Foods');
    stranger = { authorization: `Bearer ${(await fx.signIn(other)).accessToken}` };
  });
  afterAll(async () => {
    await receiver?.close();
    await fx?.close();
    await system?.stop();
  });

  const received = (path: string): ReceivedWebhook[] => receiver.received.filter((r) => r.path === path);
  const create = (headers: Record<string, string>, body: unknown) =>
    system.http('POST', '/api/v1/tenant/webhooks', { headers, body });

  it('registers an endpoint and shows its secret once, never in a listing', async () => {
    const response = await create(owner, { url: `${receiver.url}/main`, types: ['milestone.completed'] });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    ({ webhook, secret } = data<{ webhook: WebhookJson; secret: string }>(response));
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({
      url: `${receiver.url}/main`,
      types: ['milestone.completed'],
      enabled: true,
    });

    const listed = await system.http('GET', '/api/v1/tenant/webhooks', { headers: admin });
    expect(listed.status).toBe(200);
    expect(data<{ webhooks: WebhookJson[] }>(listed).webhooks.map((w) => w.id)).toEqual([webhook.id]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
    const one = await system.http('GET', `/api/v1/tenant/webhooks/${webhook.id}`, { headers: owner });
    expect(data<{ webhook: WebhookJson }>(one).webhook.id).toBe(webhook.id);
  });

  it('delivers milestone.completed from a product event on the bus, signed so that verifyWebhook accepts it', async () => {
    const now = new Date();
    await system.publish(event(tenantId, 'company.profile_completed', {}, now));
    await system.publish(event(tenantId, 'product.created', { productId: 'p-1' }, now));
    const delivered = await waitFor(async () => received('/main')[0], 30_000);
    const verified = await verifyWebhook(secret, delivered.headers, delivered.body);
    const payload = verified.payload as EventJson;
    expect(payload).toMatchObject({ type: 'milestone.completed', tenantId });
    expect(verified.id).toBe(payload.id);
    await expect(
      verifyWebhook(
        `whsec_${Buffer.alloc(32).toString('base64')}`,
        delivered.headers as Record<string, string>,
        delivered.body,
      ),
    ).rejects.toMatchObject({
      code: 'SIGNATURE_MISMATCH',
    });

    const deliveries = await system.http('GET', `/api/v1/tenant/webhooks/${webhook.id}/deliveries`, {
      headers: owner,
    });
    const [first] = data<{ deliveries: DeliveryJson[] }>(deliveries).deliveries.filter(
      (d) => d.eventId === payload.id,
    );
    expect(first).toMatchObject({ status: 'DELIVERED', attempts: 1, eventType: 'milestone.completed' });
  });

  it('retries a failing receiver with the same webhook-id and logs every attempt', async () => {
    receiver.answer('/flaky', [500, 503]);
    const made = await create(owner, { url: `${receiver.url}/flaky`, types: ['tier.changed'] });
    const flaky = data<{ webhook: WebhookJson; secret: string }>(made);
    const sent = await system.http('POST', `/api/v1/tenant/webhooks/${flaky.webhook.id}/test`, {
      headers: owner,
    });
    expect(sent.status).toBe(202);
    const delivery = data<{ delivery: DeliveryJson }>(sent).delivery;
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'PENDING' });

    const three = await waitFor(
      async () => (received('/flaky').length >= 3 ? received('/flaky') : undefined),
      30_000,
    );
    expect(new Set(three.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.eventId]));
    const verified = await verifyWebhook(flaky.secret, three[2]!.headers, three[2]!.body);
    expect(verified.payload).toMatchObject({ type: 'webhook.test', tenantId });

    const attempts = await waitFor(async () => {
      const r = await system.http('GET', `/api/v1/tenant/webhooks/deliveries/${delivery.id}/attempts`, {
        headers: admin,
      });
      const list = data<{ attempts: { status: number | null }[] }>(r).attempts;
      return list.length >= 3 ? list : undefined;
    });
    expect(attempts.map((a) => a.status)).toEqual([500, 503, 200]);

    const replayed = await system.http('POST', `/api/v1/tenant/webhooks/deliveries/${delivery.id}/replay`, {
      headers: owner,
    });
    expect(replayed.status).toBe(202);
    const fourth = await waitFor(async () => received('/flaky')[3]);
    expect(fourth.headers['webhook-id']).toBe(delivery.eventId);
  });

  it('signs with the old and the new secret after a rotation', async () => {
    const rotated = await system.http('POST', `/api/v1/tenant/webhooks/${webhook.id}/rotate-secret`, {
      headers: owner,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const next = data<{ secret: string; previousSecretExpiresAt: string }>(rotated);
    expect(next.secret).toMatch(/^whsec_/);
    expect(next.secret).not.toBe(secret);
    const sent = await system.http('POST', `/api/v1/tenant/webhooks/${webhook.id}/test`, { headers: owner });
    const { eventId } = data<{ delivery: DeliveryJson }>(sent).delivery;
    const arrived = await waitFor(async () =>
      received('/main').find((r) => r.headers['webhook-id'] === eventId),
    );
    for (const key of [secret, next.secret])
      await expect(
        verifyWebhook(key, arrived.headers as Record<string, string>, arrived.body),
      ).resolves.toBeDefined();
    secret = next.secret;
  });

  it('answers another tenant 404 for every endpoint and delivery id, and changes nothing', async () => {
    const deliveries = await system.http('GET', `/api/v1/tenant/webhooks/${webhook.id}/deliveries`, {
      headers: owner,
    });
    const deliveryId = data<{ deliveries: DeliveryJson[] }>(deliveries).deliveries[0]!.id;
    const tries: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/tenant/webhooks/${webhook.id}`],
      ['PATCH', `/api/v1/tenant/webhooks/${webhook.id}`, { enabled: false }],
      ['DELETE', `/api/v1/tenant/webhooks/${webhook.id}`],
      ['POST', `/api/v1/tenant/webhooks/${webhook.id}/rotate-secret`],
      ['POST', `/api/v1/tenant/webhooks/${webhook.id}/test`],
      ['GET', `/api/v1/tenant/webhooks/${webhook.id}/deliveries`],
      ['GET', `/api/v1/tenant/webhooks/deliveries/${deliveryId}/attempts`],
      ['POST', `/api/v1/tenant/webhooks/deliveries/${deliveryId}/replay`],
    ];
    for (const [method, path, body] of tries) {
      const response = await system.http(method, path, { headers: stranger, ...(body ? { body } : {}) });
      expect([method, path, response.status]).toEqual([method, path, 404]);
      expect(['ENDPOINT_NOT_FOUND', 'DELIVERY_NOT_FOUND']).toContain(code(response));
    }
    const mine = await system.http('GET', `/api/v1/tenant/webhooks/${webhook.id}`, { headers: owner });
    expect(data<{ webhook: WebhookJson }>(mine).webhook.enabled).toBe(true);
    const theirs = await system.http('GET', '/api/v1/tenant/webhooks', { headers: stranger });
    expect(data<{ webhooks: unknown[] }>(theirs).webhooks).toEqual([]);
  });

  it('lets only OWNERs and ADMINs manage webhooks and read the audit log', async () => {
    for (const path of ['/api/v1/tenant/webhooks', '/api/v1/tenant/audit-events']) {
      const asMember = await system.http('GET', path, { headers: member });
      expect([path, asMember.status, code(asMember)]).toEqual([path, 403, 'ROLE_FORBIDDEN']);
      const asClient = await system.http('GET', path, { headers: client });
      expect([path, asClient.status, code(asClient)]).toEqual([path, 403, 'insufficient_scope']);
    }
    const made = await create(member, { url: `${receiver.url}/x`, types: ['tier.changed'] });
    expect(made.status).toBe(403);
  });

  it('refuses bad endpoints and bad input with a 4xx in the spec shape', async () => {
    const cases: Array<[unknown, number, string]> = [
      [{ url: 'https://10.0.0.8/hook', types: ['tier.changed'] }, 400, 'ENDPOINT_ADDRESS_FORBIDDEN'],
      [{ url: 'ftp://hooks.example/x', types: ['tier.changed'] }, 400, 'ENDPOINT_URL_INVALID'],
      [{ url: `${receiver.url}/x`, types: ['nope.nothing'] }, 400, 'VALIDATION_FAILED'],
      [{ url: `${receiver.url}/x`, types: [] }, 400, 'VALIDATION_FAILED'],
      [{ url: `${receiver.url}/x`, types: ['tier.changed'], tenantId: 'x' }, 400, 'VALIDATION_FAILED'],
    ];
    for (const [body, status, expected] of cases) {
      const response = await create(owner, body);
      expect([body, response.status, code(response)]).toEqual([body, status, expected]);
    }
    const empty = await system.http('PATCH', `/api/v1/tenant/webhooks/${webhook.id}`, {
      headers: owner,
      body: {},
    });
    expect(empty.status).toBe(400);
  });

  it('disables, refuses a test to a disabled endpoint, and deletes', async () => {
    const made = await create(owner, { url: `${receiver.url}/gone`, types: ['tier.changed'] });
    const id = data<{ webhook: WebhookJson }>(made).webhook.id;
    const off = await system.http('PATCH', `/api/v1/tenant/webhooks/${id}`, {
      headers: owner,
      body: { enabled: false },
    });
    expect(data<{ webhook: WebhookJson }>(off).webhook).toMatchObject({
      enabled: false,
      disabledReason: 'BY_USER',
    });
    const test = await system.http('POST', `/api/v1/tenant/webhooks/${id}/test`, { headers: owner });
    expect([test.status, code(test)]).toEqual([409, 'ENDPOINT_DISABLED']);
    expect((await system.http('DELETE', `/api/v1/tenant/webhooks/${id}`, { headers: owner })).status).toBe(
      204,
    );
    expect((await system.http('GET', `/api/v1/tenant/webhooks/${id}`, { headers: owner })).status).toBe(404);
  });

  describe('the events feed', () => {
    const memberJoined = (userId: string): DomainEvent => ({
      id: randomUUID(),
      type: 'member.joined',
      tenantId,
      occurredAt: new Date().toISOString(),
      subject: { userId },
      data: { role: 'MEMBER' },
    });

    it('pages the tenant events oldest first with a cursor, for any token of the tenant', async () => {
      // The tenant's first events also include what identity and entitlements announce (its tier).
      const first = await system.http('GET', '/api/v1/tenant/events?limit=1&types=milestone.completed', {
        headers: client,
      });
      expect(first.status).toBe(200);
      const page = data<{ events: EventJson[]; nextCursor: string | null }>(first);
      expect(page.events).toEqual([expect.objectContaining({ type: 'milestone.completed', tenantId })]);
      const rest = await system.http(
        'GET',
        `/api/v1/tenant/events?types=milestone.completed&after=${page.nextCursor}`,
        {
          headers: member,
        },
      );
      const later = data<{ events: EventJson[]; nextCursor: string }>(rest);
      expect(later.events.map((e) => e.id)).not.toContain(page.events[0]!.id);
      const theirs = await system.http('GET', '/api/v1/tenant/events', { headers: stranger });
      expect(data<{ events: EventJson[] }>(theirs).events.filter((e) => e.tenantId === tenantId)).toEqual([]);
    });

    it('refuses a cursor it did not issue and unknown types with 400', async () => {
      const cursor = await system.http('GET', '/api/v1/tenant/events?after=bm90LWEtY3Vyc29y', {
        headers: owner,
      });
      expect([cursor.status, code(cursor)]).toEqual([400, 'CURSOR_INVALID']);
      const types = await system.http('GET', '/api/v1/tenant/events?types=no.such', { headers: owner });
      expect([types.status, code(types)]).toEqual([400, 'EVENT_TYPES_INVALID']);
      const shape = await system.http('GET', '/api/v1/tenant/events?after=%3D%3D', { headers: owner });
      expect([shape.status, code(shape)]).toEqual([400, 'VALIDATION_FAILED']);
    });

    it('streams events as they arrive, with heartbeats, and resumes after Last-Event-ID', async () => {
      const url = `${system.baseUrl}/api/v1/tenant/events`;
      const stream = await openSse(url, owner);
      expect(stream.status).toBe(200);
      expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await system.publishDomain(memberJoined('u-live-1'));
      const messages = (items: readonly SseItem[]) =>
        items.filter((i): i is Extract<SseItem, { kind: 'message' }> => i.kind === 'message');
      const seen = await stream.until(
        (items) =>
          items.some((i) => i.kind === 'message' && i.data.includes('u-live-1')) &&
          items.some((i) => i.kind === 'comment' && i.text === 'heartbeat'),
      );
      stream.close();
      const all = messages(seen);
      const milestone = all.findIndex(
        (m) => (JSON.parse(m.data) as EventJson).type === 'milestone.completed',
      );
      expect(milestone).toBeGreaterThanOrEqual(0);

      await system.publishDomain(memberJoined('u-after-1'));
      const resumed = await openSse(url, { ...owner, 'last-event-id': all[milestone]!.id });
      const after = await resumed.until((items) =>
        items.some((i) => i.kind === 'message' && i.data.includes('u-after-1')),
      );
      resumed.close();
      const ids = messages(after).map((m) => (JSON.parse(m.data) as EventJson).id);
      const milestoneId = (JSON.parse(all[milestone]!.data) as EventJson).id;
      expect(ids).not.toContain(milestoneId);
      expect(ids.filter((id) => id === (JSON.parse(all.at(-1)!.data) as EventJson).id)).toHaveLength(1);
    });

    it('caps the open streams of one tenant with a clear 429, and frees a slot when one closes', async () => {
      const url = `${system.baseUrl}/api/v1/tenant/events`;
      const open = [];
      for (let i = 0; i < SYSTEM_EVENT_STREAMS.perTenant; i++) open.push(await openSse(url, owner));
      expect(open.map((s) => s.status)).toEqual(open.map(() => 200));
      const refused = await system.http('GET', '/api/v1/tenant/events', {
        headers: { ...owner, accept: 'text/event-stream' },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ error: 'RATE_LIMIT_EXCEEDED', retryAfter: expect.any(Number) });
      expect(refused.headers.get('retry-after')).toBeTruthy();
      // Another tenant has slots of its own; the JSON feed is never capped.
      const theirs = await openSse(url, stranger);
      expect(theirs.status).toBe(200);
      theirs.close();
      expect((await system.http('GET', '/api/v1/tenant/events', { headers: owner })).status).toBe(200);

      open.pop()!.close();
      const again = await waitFor(async () => {
        const s = await openSse(url, owner);
        if (s.status === 200) return s;
        return undefined;
      });
      again.close();
      for (const s of open) s.close();
    });

    it('refuses a Last-Event-ID it did not send with 400', async () => {
      const response = await system.http('GET', '/api/v1/tenant/events', {
        headers: { ...owner, accept: 'text/event-stream', 'last-event-id': 'not a cursor!' },
      });
      expect([response.status, code(response)]).toEqual([400, 'VALIDATION_FAILED']);
    });
  });

  describe('the audit log', () => {
    it("lists the tenant's webhook changes with their actor, newest first, and nothing of another tenant", async () => {
      const response = await system.http('GET', '/api/v1/tenant/audit-events', { headers: owner });
      expect(response.status).toBe(200);
      const entries = data<{
        entries: { action: string; actor: { type: string }; target: { id: string } | null }[];
      }>(response).entries;
      const actions = entries.map((e) => e.action);
      expect(actions).toEqual(
        expect.arrayContaining([
          'webhook_endpoint.created',
          'webhook_endpoint.secret_rotated',
          'webhook_endpoint.deleted',
        ]),
      );
      expect(entries.find((e) => e.action === 'webhook_endpoint.secret_rotated')).toMatchObject({
        actor: { type: 'user' },
        target: { id: webhook.id },
      });
      const filtered = await system.http(
        'GET',
        '/api/v1/tenant/audit-events?action=webhook_endpoint.deleted',
        { headers: admin },
      );
      expect(data<{ entries: { action: string }[] }>(filtered).entries.map((e) => e.action)).toEqual([
        'webhook_endpoint.deleted',
      ]);
      // The other tenant sees its own entries (its owner's sign-in), none of this tenant's.
      const theirs = await system.http('GET', '/api/v1/tenant/audit-events', { headers: stranger });
      const theirEntries = data<{ entries: { action: string; target: { id: string } | null }[] }>(
        theirs,
      ).entries;
      expect(theirEntries.filter((e) => e.action.startsWith('webhook_endpoint.'))).toEqual([]);
      expect(theirEntries.map((e) => e.target?.id)).not.toContain(webhook.id);
    });

    it('exports CSV in which a formula cannot run', async () => {
      const audit: DomainEvent = {
        id: randomUUID(),
        type: 'audit.entry_recorded',
        tenantId,
        occurredAt: new Date().toISOString(),
        subject: {},
        data: {
          actor: { type: 'user', id: 'u-evil' },
          action: 'session.sign_in',
          outcome: 'FAILURE',
          reason: 'INVALID_CREDENTIALS',
          userAgent: '=HYPERLINK("http://evil.example","click")',
        },
      };
      await system.publishDomain(audit);
      const csv = await waitFor(async () => {
        const r = await system.http('GET', '/api/v1/tenant/audit-events?format=csv', { headers: owner });
        return typeof r.body === 'string' && r.body.includes('u-evil') ? r : undefined;
      });
      expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
      const text = csv.body as string;
      expect(text.split('\r\n')[0]).toContain('action');
      expect(text).not.toMatch(/(^|,)"?=HYPERLINK/m);
      expect(text).toContain(`'=HYPERLINK`);
    });

    it('refuses a range over 400 days and a malformed cursor with 400', async () => {
      const long = await system.http(
        'GET',
        '/api/v1/tenant/audit-events?from=2024-01-01T00:00:00Z&to=2025-06-01T00:00:00Z',
        { headers: owner },
      );
      expect([long.status, code(long)]).toEqual([400, 'AUDIT_RANGE_TOO_LONG']);
      const cursor = await system.http('GET', '/api/v1/tenant/audit-events?cursor=bm9wZQ', {
        headers: owner,
      });
      expect([cursor.status, code(cursor)]).toEqual([400, 'CURSOR_INVALID']);
      const date = await system.http('GET', '/api/v1/tenant/audit-events?from=yesterday', { headers: owner });
      expect([date.status, code(date)]).toEqual([400, 'VALIDATION_FAILED']);
    });
  });
});
