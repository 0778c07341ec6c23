import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { contracts, type NotificationsServiceClient } from '@tap/contracts';
import { createClient, isRemoteCallError, unaryCall } from '@tap/grpc-kit';
import { openIdentityFixtures, type Account, type IdentityFixtures } from '../support/identity-fixtures.js';
import { startSystem, tlsOf, type HttpResponse, type System } from '../support/system.js';
import { waitFor } from '../support/wait-for.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/*
 * Hostile callers of the webhook, events-feed and audit-log routes (issue 24): another tenant's
 * ids (404, nothing changes), the wrong role or a client token (403, nothing changes), input
 * made to break the edge or the service (a 4xx in the spec's shape, never a 5xx), and other
 * services calling the notifications RPCs directly (refused by the allowlist).
 */

const WEBHOOKS = '/api/v1/tenant/webhooks';

interface Created {
  webhook: { id: string; enabled: boolean; url: string; types: string[] };
  secret: string;
}

const codeOf = (response: HttpResponse): string | undefined => {
  const body = response.body as { error?: { code?: string } | string };
  return typeof body.error === 'string' ? body.error : body.error?.code;
};

/** A 4xx whose body is one of the spec's error shapes. */
const expectSpecRefusal = (where: unknown, response: HttpResponse, status?: number) => {
  expect([where, response.status >= 400 && response.status < 500]).toEqual([where, true]);
  if (status) expect([where, response.status]).toEqual([where, status]);
  expect([where, typeof codeOf(response)]).toEqual([where, 'string']);
  expect(JSON.stringify(response.body)).not.toMatch(/\bat .+\.js:\d+/);
};

describe('hostile calls to webhooks, the events feed and the audit log', () => {
  let system: System;
  let fx: IdentityFixtures;
  let receiver: WebhookReceiver;
  let victim: Account;
  let asVictim: Record<string, string>;
  let asMallory: Record<string, string>;
  let asMember: Record<string, string>;
  let asClient: Record<string, string>;
  let endpoint: Created;
  let deliveryId: string;

  beforeAll(async () => {
    system = await startSystem('hostile_notifications');
    fx = await openIdentityFixtures(system);
    receiver = await startWebhookReceiver();
    victim = await fx.tenantWithOwner('Victim Hooks');
    const mallory = await fx.tenantWithOwner('Mallory Hooks');
    await system.setTier(victim.tenantId, 'CORE');
    asVictim = { authorization: `Bearer ${(await fx.signIn(victim)).accessToken}` };
    asMallory = { authorization: `Bearer ${(await fx.signIn(mallory)).accessToken}` };
    asMember = {
      authorization: `Bearer ${(await fx.signIn(await fx.addUser(victim.tenantId, 'MEMBER'))).accessToken}`,
    };
    const client = await fx.oauthClient(victim.tenantId, ['products:read']);
    asClient = { authorization: `Bearer ${await fx.clientToken(client.clientId, client.clientSecret)}` };
    const made = await system.http('POST', WEBHOOKS, {
      headers: asVictim,
      body: { url: `${receiver.url}/victim`, types: ['member.joined'] },
    });
    expect(made.status).toBe(201);
    endpoint = (made.body as { data: Created }).data;
    const sent = await system.http('POST', `${WEBHOOKS}/${endpoint.webhook.id}/test`, { headers: asVictim });
    deliveryId = (sent.body as { data: { delivery: { id: string } } }).data.delivery.id;
    await waitFor(async () => (receiver.received.length > 0 ? true : undefined));
  });
  afterAll(async () => {
    await receiver?.close();
    await fx?.close();
    await system?.stop();
  });

  /** Every webhook route with the victim's ids in it. */
  const victimRoutes = (): Array<[string, string, unknown?]> => [
    ['GET', `${WEBHOOKS}/${endpoint.webhook.id}`],
    ['PATCH', `${WEBHOOKS}/${endpoint.webhook.id}`, { enabled: false, types: ['tier.changed'] }],
    ['DELETE', `${WEBHOOKS}/${endpoint.webhook.id}`],
    ['POST', `${WEBHOOKS}/${endpoint.webhook.id}/rotate-secret`],
    ['POST', `${WEBHOOKS}/${endpoint.webhook.id}/test`],
    ['GET', `${WEBHOOKS}/${endpoint.webhook.id}/deliveries`],
    ['GET', `${WEBHOOKS}/deliveries/${deliveryId}/attempts`],
    ['POST', `${WEBHOOKS}/deliveries/${deliveryId}/replay`],
  ];

  /** The victim's endpoint as its owner sees it, and how many requests its receiver got. */
  const victimState = async () => {
    const response = await system.http('GET', `${WEBHOOKS}/${endpoint.webhook.id}`, { headers: asVictim });
    return { status: response.status, body: response.body, received: receiver.received.length };
  };

  it("answers another tenant's endpoint and delivery ids 404 like unknown ones, and changes nothing", async () => {
    const before = await victimState();
    for (const [method, path, body] of victimRoutes()) {
      const response = await system.http(method, path, { headers: asMallory, ...(body ? { body } : {}) });
      expectSpecRefusal([method, path], response, 404);
      expect(JSON.stringify(response.body)).not.toContain(endpoint.webhook.url);
      const unknown = await system.http(method, path.replace(/[0-9a-f-]{36}/, randomUUID()), {
        headers: asMallory,
        ...(body ? { body } : {}),
      });
      expect([method, path, codeOf(unknown)]).toEqual([method, path, codeOf(response)]);
    }
    expect(await victimState()).toEqual(before);
  });

  it('refuses a MEMBER and a client token on every webhook route and the audit log with 403, and changes nothing', async () => {
    const before = await victimState();
    const routes = [
      ...victimRoutes(),
      ['GET', WEBHOOKS],
      ['POST', WEBHOOKS, { url: `${receiver.url}/x`, types: ['tier.changed'] }],
      ['GET', '/api/v1/tenant/audit-events'],
      ['GET', '/api/v1/tenant/audit-events?format=csv'],
    ] as Array<[string, string, unknown?]>;
    for (const headers of [asMember, asClient]) {
      for (const [method, path, body] of routes) {
        const response = await system.http(method, path, { headers, ...(body ? { body } : {}) });
        expectSpecRefusal([method, path], response, 403);
        expect(['ROLE_FORBIDDEN', 'insufficient_scope']).toContain(codeOf(response));
      }
    }
    expect(await victimState()).toEqual(before);
    const listed = await system.http('GET', WEBHOOKS, { headers: asVictim });
    expect((listed.body as { data: { webhooks: unknown[] } }).data.webhooks).toHaveLength(1);
  });

  it("never shows another tenant's events, whatever cursor it is given", async () => {
    await system.publishDomain({
      id: randomUUID(),
      type: 'member.joined',
      tenantId: victim.tenantId,
      occurredAt: new Date().toISOString(),
      subject: { userId: 'victim-user' },
      data: { role: 'MEMBER' },
    });
    const page = await waitFor(async () => {
      const r = await system.http('GET', '/api/v1/tenant/events', { headers: asVictim });
      const data = (r.body as { data: { events: unknown[]; nextCursor: string | null } }).data;
      return data.events.length > 0 ? data : undefined;
    });
    expect(page.nextCursor).toEqual(expect.any(String));
    for (const query of ['', `?after=${page.nextCursor}`]) {
      const theirs = await system.http('GET', `/api/v1/tenant/events${query}`, { headers: asMallory });
      expect(theirs.status).toBe(200);
      expect(JSON.stringify(theirs.body)).not.toContain(victim.tenantId);
    }
    const audit = await system.http('GET', `/api/v1/tenant/audit-events?actorId=${victim.userId}`, {
      headers: asMallory,
    });
    expect((audit.body as { data: { entries: unknown[] } }).data.entries).toEqual([]);
  });

  it('answers malformed input to every new route with a 4xx in the spec shape, never a 5xx', async () => {
    const id = endpoint.webhook.id;
    const cases: Array<[string, string, unknown?, Record<string, string>?]> = [
      ['POST', WEBHOOKS, { url: 'https://user:pw@hooks.example/x', types: ['tier.changed'] }],
      ['POST', WEBHOOKS, { url: 'https://169.254.169.254/latest', types: ['tier.changed'] }],
      ['POST', WEBHOOKS, { url: 'https://[::1]/x', types: ['tier.changed'] }],
      ['POST', WEBHOOKS, { url: 'https://no-such-host.invalid/x', types: ['tier.changed'] }],
      ['POST', WEBHOOKS, { url: `https://${'a'.repeat(3000)}.example/`, types: ['tier.changed'] }],
      ['POST', WEBHOOKS, { url: 'https://hooks.example/x', types: ['tier.changed', 'tier.changed'] }],
      ['POST', WEBHOOKS, { url: 'https://hooks.example/x', types: ['audit.entry_recorded'] }],
      ['POST', WEBHOOKS, { url: 42, types: 'tier.changed' }],
      ['POST', WEBHOOKS, { url: 'https://hooks.example/x', types: ['tier.changed'], enabled: 'yes' }],
      ['POST', WEBHOOKS, '{"url":', { 'content-type': 'application/json' }],
      ['POST', WEBHOOKS, 'url=x', { 'content-type': 'application/x-www-form-urlencoded' }],
      ['PATCH', `${WEBHOOKS}/${id}`, { types: [] }],
      ['PATCH', `${WEBHOOKS}/${id}`, { url: 'https://elsewhere.example/' }],
      ['GET', `${WEBHOOKS}/${'x'.repeat(200)}`],
      ['GET', `${WEBHOOKS}/%00`],
      ['GET', `${WEBHOOKS}/${id}/deliveries?limit=0`],
      ['GET', `${WEBHOOKS}/${id}/deliveries?limit=abc`],
      ['GET', '/api/v1/tenant/events?limit=1000'],
      ['GET', '/api/v1/tenant/events?after='],
      ['GET', '/api/v1/tenant/events?types=,'],
      ['GET', '/api/v1/tenant/events?tenantId=other'],
      [
        'GET',
        '/api/v1/tenant/events',
        undefined,
        { accept: 'text/event-stream', 'last-event-id': '../../etc' },
      ],
      ['GET', '/api/v1/tenant/audit-events?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z'],
      ['GET', '/api/v1/tenant/audit-events?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z'],
      ['GET', '/api/v1/tenant/audit-events?from=tomorrow'],
      ['GET', '/api/v1/tenant/audit-events?cursor=%3D%3D'],
      ['GET', '/api/v1/tenant/audit-events?cursor=YWJj'],
      ['GET', '/api/v1/tenant/audit-events?action=DROP%20TABLE'],
      ['GET', '/api/v1/tenant/audit-events?format=xml'],
      ['GET', '/api/v1/tenant/audit-events?limit=-1'],
    ];
    for (const [method, path, body, headers] of cases) {
      const response = await system.http(method, path, {
        headers: { ...asVictim, ...headers },
        ...(body === undefined ? {} : { body }),
      });
      expectSpecRefusal([method, path, body], response);
    }
    // The endpoint was neither changed nor duplicated by any of it.
    const listed = await system.http('GET', WEBHOOKS, { headers: asVictim });
    expect((listed.body as { data: { webhooks: Created['webhook'][] } }).data.webhooks).toEqual([
      expect.objectContaining({ id, enabled: true, types: ['member.joined'] }),
    ]);
  });

  it('keeps every secret out of listings, deliveries, attempts and the audit log', async () => {
    const bodies = await Promise.all(
      [
        WEBHOOKS,
        `${WEBHOOKS}/${endpoint.webhook.id}`,
        `${WEBHOOKS}/${endpoint.webhook.id}/deliveries`,
        `${WEBHOOKS}/deliveries/${deliveryId}/attempts`,
        '/api/v1/tenant/audit-events',
        '/api/v1/tenant/audit-events?format=csv',
      ].map(async (path) => JSON.stringify((await system.http('GET', path, { headers: asVictim })).body)),
    );
    for (const body of bodies) {
      expect(body).not.toContain('whsec_');
      expect(body).not.toContain(endpoint.secret.slice(6, 20));
    }
    const entries = await system.notificationsDb.collection('audit_entries').find({}).toArray();
    expect(entries.length).toBeGreaterThan(0);
    const dump = JSON.stringify(entries);
    expect(dump).not.toMatch(/whsec_|Bearer |eyJ[A-Za-z0-9_-]{10,}\./);
  });

  it('refuses the notifications RPCs to every service but the gateway, even with a valid user token', async () => {
    const token = (asVictim.authorization ?? '').replace(/^Bearer /, '');
    const outcomes: Array<[string, number | string]> = [];
    for (const service of ['identity', 'adoption', 'entitlements']) {
      const client: NotificationsServiceClient = createClient(
        contracts().notifications.NotificationsService,
        system.addresses.notifications,
        await tlsOf(service),
      );
      try {
        await unaryCall(client, 'ListWebhookEndpoints', {}, { authorization: `Bearer ${token}` });
        outcomes.push([service, 'OK']);
      } catch (error) {
        outcomes.push([service, isRemoteCallError(error) ? error.grpcStatus : String(error)]);
      } finally {
        client.close();
      }
    }
    // PERMISSION_DENIED (7) before any handler runs.
    expect(outcomes).toEqual([
      ['identity', 7],
      ['adoption', 7],
      ['entitlements', 7],
    ]);
  });
});
