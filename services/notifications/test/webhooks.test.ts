import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac, randomUUID } from 'node:crypto';
import type { DomainEvent } from '@tap/contracts';
import { createDomainEventPublisher, createEventPublisher } from '@tap/events';
import { waitFor } from '@tap/testkit';
import { notificationErrors } from '../src/domain/index.js';
import { startReceiver, type Received, type Receiver } from './support/receiver.js';
import { domainEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

function clientCreated(tenantId: string): DomainEvent {
  return domainEvent(tenantId, 'oauth_client.created', { clientId: randomUUID() }, { name: 'ERP' });
}

/** What a receiver does: recompute every v1 signature with the secret. */
function signatureVerifies(secret: string, request: Received): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest('base64');
  return String(request.headers['webhook-signature'])
    .split(' ')
    .some((part) => part === `v1,${expected}`);
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('webhooks', () => {
  let bed: TestBed;
  let receiver: Receiver;
  const tenantId = randomUUID();

  beforeAll(async () => {
    bed = await openTestBed('webhooks');
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await bed?.close();
  });

  const register = (path: string, types: string[] = ['oauth_client.created'], tenant = tenantId) =>
    bed.app.ops.createEndpoint({ tenantId: tenant, url: `${receiver.url}${path}`, types });
  const receivedAt = (path: string) => receiver.received.filter((r) => r.path === path);

  it('delivers a domain event published on the bus, signed with the secret shown at registration', async () => {
    const { secret, endpoint } = await register('/signed');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await bed.db.collection('webhook_endpoints').findOne({ _id: endpoint.id as never });
    expect(JSON.stringify(stored)).not.toContain(secret.slice('whsec_'.length));
    const event = clientCreated(tenantId);
    await createDomainEventPublisher(bed.js, { subjectPrefix: bed.config.domain.subjectPrefix }).publish(
      event,
    );
    await waitFor('the signed delivery', () => receivedAt('/signed').length === 1);
    const [request] = receivedAt('/signed');
    expect(request?.headers['webhook-id']).toBe(event.id);
    expect(JSON.parse(request?.body ?? '')).toEqual(event);
    expect(signatureVerifies(secret, request as Received)).toBe(true);
    expect(signatureVerifies(`whsec_${Buffer.alloc(32).toString('base64')}`, request as Received)).toBe(
      false,
    );
  });

  it('delivers milestone.completed from the product stream', async () => {
    await register('/milestones', ['milestone.completed']);
    const event = {
      id: randomUUID(),
      type: 'milestone.completed' as const,
      tenantId,
      occurredAt: new Date().toISOString(),
      subject: { milestoneKey: 'first_product' },
      data: {},
    };
    await createEventPublisher(bed.js, { subjectPrefix: bed.config.events.subjectPrefix }).publish(event);
    await waitFor('the milestone delivery', () => receivedAt('/milestones').length === 1);
    expect(receivedAt('/milestones')[0]?.headers['webhook-id']).toBe(event.id);
  });

  it('retries a failing receiver with the same webhook-id and logs every attempt', async () => {
    receiver.answer('/flaky', [{ status: 500 }, { status: 503 }, { status: 204 }]);
    const { endpoint } = await register('/flaky');
    const event = clientCreated(tenantId);
    await bed.app.ops.ingest(event);
    await waitFor('three attempts', () => receivedAt('/flaky').length === 3);
    expect(new Set(receivedAt('/flaky').map((r) => r.headers['webhook-id']))).toEqual(new Set([event.id]));
    const [delivery] = await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint.id, 10);
    await waitFor('the delivery marked delivered', async () => {
      const d = await bed.app.stores.deliveries.find(tenantId, delivery?.id ?? '');
      return d?.status === 'DELIVERED';
    });
    const attempts = await bed.app.stores.attempts.list(tenantId, delivery?.id ?? '');
    expect(attempts.map((a) => [a.attempt, a.status, a.nextAttemptAt === null])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 204, true],
    ]);
    expect(attempts.every((a) => a.latencyMs >= 0)).toBe(true);
  });

  it('gives a delivery up once the schedule is spent, and replays it on demand with the same id', async () => {
    receiver.answer('/down', () => ({ status: 500 }));
    const { endpoint } = await register('/down');
    const event = clientCreated(tenantId);
    await bed.app.ops.ingest(event);
    const [delivery] = await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint.id, 10);
    const id = delivery?.id ?? '';
    await waitFor(
      'the delivery failed for good',
      async () => (await bed.app.stores.deliveries.find(tenantId, id))?.status === 'FAILED',
    );
    expect(receivedAt('/down')).toHaveLength(4);
    receiver.answer('/down', () => ({ status: 200 }));
    await bed.app.ops.replay(tenantId, id);
    await waitFor(
      'the replay delivered',
      async () => (await bed.app.stores.deliveries.find(tenantId, id))?.status === 'DELIVERED',
    );
    expect(receivedAt('/down').at(-1)?.headers['webhook-id']).toBe(event.id);
    const error = await rejection(bed.app.ops.replay(randomUUID(), id));
    expect(notificationErrors.is(error, 'DELIVERY_NOT_FOUND')).toBe(true);
  });

  it('never follows a redirect, to loopback or anywhere', async () => {
    const elsewhere = await startReceiver();
    try {
      receiver.answer('/redirect', () => ({
        status: 307,
        headers: { location: `${elsewhere.url}/internal` },
      }));
      const { endpoint } = await register('/redirect');
      await bed.app.ops.ingest(clientCreated(tenantId));
      const [delivery] = await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint.id, 10);
      await waitFor(
        'the redirect attempts spent',
        async () => (await bed.app.stores.deliveries.find(tenantId, delivery?.id ?? ''))?.status === 'FAILED',
      );
      expect(elsewhere.received).toHaveLength(0);
      const attempts = await bed.app.stores.attempts.list(tenantId, delivery?.id ?? '');
      expect(attempts.map((a) => a.error)).toEqual(['HTTP_307', 'HTTP_307', 'HTTP_307', 'HTTP_307']);
    } finally {
      await elsewhere.close();
    }
  });

  it('queues an event ingested twice once per endpoint', async () => {
    const { endpoint } = await register('/twice');
    const event = clientCreated(tenantId);
    await bed.app.ops.ingest(event);
    await bed.app.ops.ingest(event);
    await waitFor('the delivery', () => receivedAt('/twice').length === 1);
    expect(await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint.id, 10)).toHaveLength(1);
  });

  it('signs with the old and the new secret during a rotation', async () => {
    const { secret: old, endpoint } = await register('/rotated');
    const { secret: fresh } = await bed.app.ops.rotateSecret(tenantId, endpoint.id);
    await bed.app.ops.ingest(clientCreated(tenantId));
    await waitFor('the delivery', () => receivedAt('/rotated').length === 1);
    const request = receivedAt('/rotated')[0] as Received;
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(signatureVerifies(old, request)).toBe(true);
    expect(signatureVerifies(fresh, request)).toBe(true);
    const error = await rejection(bed.app.ops.rotateSecret(randomUUID(), endpoint.id));
    expect(notificationErrors.is(error, 'ENDPOINT_NOT_FOUND')).toBe(true);
  });

  it("keeps one slow endpoint's backlog to its own slots while others are delivered", async () => {
    const tenant = randomUUID();
    receiver.answer('/slow', () => 'hold');
    await register('/slow', ['oauth_client.created'], tenant);
    await register('/fast', ['oauth_client.created'], tenant);
    for (let i = 0; i < 6; i += 1) await bed.app.ops.ingest(clientCreated(tenant));
    await waitFor('every fast delivery', () => receivedAt('/fast').length === 6);
    // Held requests end at the attempt timeout and are retried: never more than the cap open at once.
    expect(receiver.maxOpen('/slow')).toBe(bed.config.webhooks.maxInFlightPerEndpoint);
    receiver.answer('/slow', () => ({ status: 200 }));
    receiver.release();
    await waitFor(
      'the slow backlog',
      () => new Set(receivedAt('/slow').map((r) => r.headers['webhook-id'])).size === 6,
      {
        timeoutMs: 20_000,
      },
    );
    expect(receiver.maxOpen('/slow')).toBe(bed.config.webhooks.maxInFlightPerEndpoint);
  });

  it('delivers nothing to another tenant', async () => {
    const other = randomUUID();
    await register('/other-tenant', ['oauth_client.created'], other);
    await register('/this-tenant');
    await bed.app.ops.ingest(clientCreated(tenantId));
    await waitFor('this tenant’s delivery', () => receivedAt('/this-tenant').length === 1);
    await bed.app.ops.ingest(clientCreated(other));
    await waitFor('the other tenant’s delivery', () => receivedAt('/other-tenant').length === 1);
    expect(receivedAt('/this-tenant')).toHaveLength(1);
  });
});

describe('endpoint registration', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('registration', { devAllowedHosts: [] });
  });

  afterAll(async () => {
    await bed?.close();
  });

  it.each([
    ['plain http', 'http://example.com/hook', 'ENDPOINT_URL_INVALID'],
    ['credentials in the URL', 'https://user:pass@example.com/hook', 'ENDPOINT_URL_INVALID'],
    ['not a URL', 'hook', 'ENDPOINT_URL_INVALID'],
    ['loopback', 'https://127.0.0.1/hook', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['a name for loopback', 'https://localhost/hook', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['the metadata address', 'https://169.254.169.254/latest', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['a private range', 'https://10.1.2.3/hook', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['IPv6 loopback', 'https://[::1]/hook', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook', 'ENDPOINT_ADDRESS_FORBIDDEN'],
    ['a host that does not resolve', 'https://no-such-host.invalid/hook', 'ENDPOINT_HOST_UNRESOLVED'],
  ])('refuses %s', async (_label, url, code) => {
    const error = await rejection(
      bed.app.ops.createEndpoint({ tenantId: randomUUID(), url, types: ['tier.changed'] }),
    );
    expect(notificationErrors.is(error) && error.code).toBe(code);
  });

  it('refuses a forbidden address again at delivery (a name that resolved elsewhere at registration)', async () => {
    const receiver = await startReceiver();
    try {
      const tenantId = randomUUID();
      const at = new Date();
      // As if the host had passed the check at registration and now resolves to loopback.
      await bed.app.stores.endpoints.insert({
        id: randomUUID(),
        tenantId,
        url: `${receiver.url}/rebound`,
        types: ['tier.changed'],
        enabled: true,
        secrets: [],
        failingSince: null,
        disabledReason: null,
        createdAt: at,
        updatedAt: at,
      });
      const event = domainEvent(tenantId, 'tier.changed', {}, { from: 'SUPPLIER_FREE', to: 'CORE' }, at);
      await bed.app.ops.ingest(event);
      const [endpoint] = await bed.app.stores.endpoints.list(tenantId);
      const [delivery] = await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint?.id ?? '', 10);
      await waitFor('the first attempt', async () => {
        return (await bed.app.stores.attempts.list(tenantId, delivery?.id ?? '')).length > 0;
      });
      const [attempt] = await bed.app.stores.attempts.list(tenantId, delivery?.id ?? '');
      expect([attempt?.status, attempt?.error]).toEqual([null, 'ADDRESS_FORBIDDEN']);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['no type', []],
    ['an unknown type', ['tier.exploded']],
    ['the audit entry', ['audit.entry_recorded']],
    ['a type twice', ['tier.changed', 'tier.changed']],
  ])('refuses a subscription to %s', async (_label, types) => {
    const error = await rejection(
      bed.app.ops.createEndpoint({ tenantId: randomUUID(), url: 'https://203.0.113.10/hook', types }),
    );
    expect(notificationErrors.is(error, 'EVENT_TYPES_INVALID')).toBe(true);
  });
});

describe('an endpoint that keeps failing', () => {
  let bed: TestBed;
  let receiver: Receiver;

  beforeAll(async () => {
    // Disabled after the first failure that comes at least 1 ms after the run of failures began.
    bed = await openTestBed('disable', { disableAfterFailingMs: 1, retryScheduleMs: [50, 50, 50, 50] });
    receiver = await startReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await bed?.close();
  });

  it('is disabled, with an audit entry by the system, and gets nothing more', async () => {
    const tenantId = randomUUID();
    receiver.answer('/broken', () => ({ status: 500 }));
    const { endpoint } = await bed.app.ops.createEndpoint({
      tenantId,
      url: `${receiver.url}/broken`,
      types: ['oauth_client.created'],
    });
    await bed.app.ops.ingest(clientCreated(tenantId));
    await waitFor('the endpoint disabled', async () => {
      const found = await bed.app.stores.endpoints.find(tenantId, endpoint.id);
      return found?.enabled === false;
    });
    expect((await bed.app.stores.endpoints.find(tenantId, endpoint.id))?.disabledReason).toBe('FAILING');
    const audit = await bed.app.ops.audit({ tenantId });
    expect(audit.entries.map((e) => [e.action, e.actor.type, e.target?.id])).toEqual([
      ['webhook_endpoint.disabled', 'system', endpoint.id],
    ]);
    const before = receiver.received.length;
    await bed.app.ops.ingest(clientCreated(tenantId));
    expect(await bed.app.stores.deliveries.listForEndpoint(tenantId, endpoint.id, 10)).toHaveLength(1);
    expect(receiver.received.length).toBe(before);
  });
});
