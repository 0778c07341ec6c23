import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createDomainEventPublisher } from '@tap/events';
import { startSmtpSink, waitFor, type SmtpSink } from '@tap/testkit';
import { startReceiver, type Receiver } from './support/receiver.js';
import { domainEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

describe("an endpoint disabled for failing is mailed to the tenant's OWNERs, learnt from member.* events", () => {
  let bed: TestBed;
  let receiver: Receiver;
  let sink: SmtpSink;

  beforeAll(async () => {
    sink = await startSmtpSink();
    bed = await openTestBed(
      'owner_mail',
      { disableAfterFailingMs: 1, retryScheduleMs: [50, 50, 50, 50] },
      { mail: { smtpUrl: sink.url, from: 'TAP <no-reply@tap.test>' } },
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await bed?.close();
    await sink?.stop();
  });

  it('mails the active OWNERs only, once, naming the endpoint and no secret', async () => {
    const tenantId = randomUUID();
    const publisher = createDomainEventPublisher(bed.js, { subjectPrefix: bed.config.domain.subjectPrefix });
    const members = [
      domainEvent(
        tenantId,
        'member.joined',
        { userId: 'owner' },
        { role: 'OWNER', email: 'olive@owner.test' },
      ),
      domainEvent(
        tenantId,
        'member.joined',
        { userId: 'member' },
        { role: 'MEMBER', email: 'mo@member.test' },
      ),
      domainEvent(
        tenantId,
        'member.joined',
        { userId: 'former' },
        { role: 'OWNER', email: 'fay@former.test' },
      ),
      domainEvent(
        tenantId,
        'member.role_changed',
        { userId: 'former' },
        { from: 'OWNER', to: 'ADMIN', email: 'fay@former.test' },
      ),
      domainEvent(tenantId, 'member.joined', { userId: 'gone' }, { role: 'OWNER', email: 'gus@gone.test' }),
      domainEvent(tenantId, 'member.deactivated', { userId: 'gone' }, { email: 'gus@gone.test' }),
      // Another tenant's OWNER is never told about this tenant's endpoint.
      domainEvent(
        randomUUID(),
        'member.joined',
        { userId: 'other' },
        { role: 'OWNER', email: 'oscar@other.test' },
      ),
    ];
    for (const e of members) await publisher.publish(e);
    await waitFor('the members projected', async () => {
      const owners = await bed.db.collection('tenant_members').countDocuments({ tenantId });
      const deactivated = await bed.db
        .collection('tenant_members')
        .countDocuments({ tenantId, userId: 'gone', active: false });
      const demoted = await bed.db.collection('tenant_members').countDocuments({ tenantId, role: 'ADMIN' });
      return owners === 4 && deactivated === 1 && demoted === 1;
    });

    receiver.answer('/down', () => ({ status: 500 }));
    const { endpoint, secret } = await bed.app.ops.createEndpoint({
      tenantId,
      url: `${receiver.url}/down`,
      types: ['oauth_client.created'],
    });
    await bed.app.ops.ingest(
      domainEvent(tenantId, 'oauth_client.created', { clientId: randomUUID() }, { name: 'ERP' }),
    );
    const mail = await sink.waitForMessage('olive@owner.test', { timeoutMs: 10_000 });
    expect(mail.to).toEqual(['olive@owner.test']);
    expect(mail.subject).toBe('A webhook endpoint was disabled');
    expect(mail.text).toContain(endpoint.id);
    expect(mail.text).toContain(`${receiver.url}/down`);
    expect(mail.text).not.toContain(secret);
    // A later pass sends nothing again.
    expect(await bed.app.ops.notifyOwners()).toMatchObject({ pending: 0, sent: 0 });
    expect(sink.messages.filter((m) => m.text.includes(endpoint.id))).toHaveLength(1);
  });
});

describe('retention of the delivery queue and the attempt log', () => {
  let bed: TestBed;
  let receiver: Receiver;

  beforeAll(async () => {
    // Everything finished is past a 1 ms retention by the time the clean-up runs.
    bed = await openTestBed('log_retention', { retryScheduleMs: [3_600_000] }, { deliveryLogRetentionMs: 1 });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await bed?.close();
  });

  it('drops finished deliveries and old attempts, never a delivery still pending', async () => {
    const tenantId = randomUUID();
    receiver.answer('/ok', () => ({ status: 204 }));
    receiver.answer('/failing', () => ({ status: 503 }));
    const ok = await bed.app.ops.createEndpoint({
      tenantId,
      url: `${receiver.url}/ok`,
      types: ['oauth_client.created'],
    });
    const failing = await bed.app.ops.createEndpoint({
      tenantId,
      url: `${receiver.url}/failing`,
      types: ['oauth_client.created'],
    });
    await bed.app.ops.ingest(
      domainEvent(tenantId, 'oauth_client.created', { clientId: randomUUID() }, { name: 'ERP' }),
    );
    const deliveries = (endpointId: string) =>
      bed.app.stores.deliveries.listForEndpoint(tenantId, endpointId, 10);
    await waitFor('one delivered, one waiting for its retry', async () => {
      const [done] = await deliveries(ok.endpoint.id);
      const [waiting] = await deliveries(failing.endpoint.id);
      return done?.status === 'DELIVERED' && waiting?.status === 'PENDING' && waiting.attempts === 1;
    });
    const [pending] = await deliveries(failing.endpoint.id);

    const removed = await bed.app.ops.cleanup();
    expect(removed.deliveries).toBe(1);
    expect(removed.attempts).toBe(2);
    expect(await deliveries(ok.endpoint.id)).toEqual([]);
    expect((await deliveries(failing.endpoint.id)).map((d) => [d.id, d.status])).toEqual([
      [pending!.id, 'PENDING'],
    ]);
    expect(await bed.app.stores.attempts.list(tenantId, pending!.id)).toEqual([]);
    expect(await bed.app.ops.cleanup()).toMatchObject({ deliveries: 0, attempts: 0 });
  });
});

describe('an owner notice while the mail server is down', () => {
  let bed: TestBed;
  let receiver: Receiver;
  let sink: SmtpSink;
  let port: number;

  beforeAll(async () => {
    // A port the sink held and gave back: nothing listens there until the test starts it again.
    const probe = await startSmtpSink();
    port = Number(new URL(probe.url).port);
    await probe.stop();
    bed = await openTestBed(
      'owner_mail_down',
      { disableAfterFailingMs: 1, retryScheduleMs: [50, 50, 50, 50] },
      { mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'TAP <no-reply@tap.test>' } },
    );
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await bed?.close();
    await sink?.stop();
  });

  it('is kept and mailed once the mail server is back', async () => {
    const tenantId = randomUUID();
    await bed.app.ops.apply(
      domainEvent(tenantId, 'member.joined', { userId: 'o' }, { role: 'OWNER', email: 'olga@owner.test' }),
    );
    receiver.answer('/down', () => ({ status: 500 }));
    const { endpoint } = await bed.app.ops.createEndpoint({
      tenantId,
      url: `${receiver.url}/down`,
      types: ['oauth_client.created'],
    });
    await bed.app.ops.ingest(
      domainEvent(tenantId, 'oauth_client.created', { clientId: randomUUID() }, { name: 'ERP' }),
    );
    const notices = bed.db.collection('owner_notices');
    await waitFor(
      'the notice written',
      async () => (await notices.countDocuments({ endpointId: endpoint.id })) === 1,
    );
    expect(await bed.app.ops.notifyOwners()).toMatchObject({ pending: 1, sent: 0, failed: 1 });
    expect(await notices.countDocuments({ endpointId: endpoint.id, sentAt: null })).toBe(1);

    sink = await startSmtpSink({ port });
    expect(await bed.app.ops.notifyOwners()).toMatchObject({ pending: 1, sent: 1, failed: 0 });
    const mail = await sink.waitForMessage('olga@owner.test', { timeoutMs: 10_000 });
    expect(mail.text).toContain(endpoint.id);
    expect(await bed.app.ops.notifyOwners()).toMatchObject({ pending: 0 });
    expect(sink.messages).toHaveLength(1);
  });
});
