import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { contracts, type NotificationsServiceClient } from '@tap/contracts';
import { createClient, GrpcStatus, tlsFromPem, unaryCall } from '@tap/grpc-kit';
import { remoteError } from '@tap/service-testkit';
import { testIdentity } from '@tap/testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';

describe('the notifications gRPC service', () => {
  let bed: TestBed;
  let gateway: NotificationsServiceClient;
  let adoption: NotificationsServiceClient;
  const tenant = randomUUID();

  beforeAll(async () => {
    bed = await openTestBed('grpc');
    const service = contracts().notifications.NotificationsService;
    gateway = createClient(service, bed.address, tlsFromPem(await testIdentity('gateway')));
    adoption = createClient(service, bed.address, tlsFromPem(await testIdentity('adoption')));
  });

  afterAll(async () => {
    gateway?.close();
    adoption?.close();
    await bed?.close();
  });

  const owner = async (tenantId = tenant) => ({ authorization: await bed.tokens.bearer(tenantId, 'OWNER') });
  const create = async (tenantId = tenant) =>
    unaryCall(
      gateway,
      'CreateWebhookEndpoint',
      { url: 'http://127.0.0.1:9/hook', types: ['tier.changed'] },
      await owner(tenantId),
    );

  it('registers, lists, updates, rotates and deletes an endpoint, never showing a secret but once, and audits each change', async () => {
    const created = await create();
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await unaryCall(gateway, 'ListWebhookEndpoints', {}, await owner());
    expect(listed.endpoints.map((e) => e.id)).toEqual([created.endpoint?.id]);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
    const endpointId = created.endpoint?.id ?? '';
    const updated = await unaryCall(
      gateway,
      'UpdateWebhookEndpoint',
      { endpointId, types: ['tier.changed', 'member.joined'], enabled: false },
      await owner(),
    );
    expect([updated.types, updated.enabled, updated.disabledReason]).toEqual([
      ['tier.changed', 'member.joined'],
      false,
      'BY_USER',
    ]);
    const rotated = await unaryCall(gateway, 'RotateWebhookSecret', { endpointId }, await owner());
    expect(rotated.secret).not.toBe(created.secret);
    await unaryCall(gateway, 'DeleteWebhookEndpoint', { endpointId }, await owner());
    const audit = await unaryCall(gateway, 'ListAuditEntries', {}, await owner());
    expect(audit.entries.map((e) => e.action)).toEqual([
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.updated',
      'webhook_endpoint.created',
    ]);
    expect(JSON.stringify(audit)).not.toContain('whsec_');
  });

  it("answers another tenant's endpoint and delivery ids with NOT_FOUND and changes nothing", async () => {
    const created = await create();
    const endpointId = created.endpoint?.id ?? '';
    const stranger = await owner(randomUUID());
    for (const call of [
      unaryCall(gateway, 'UpdateWebhookEndpoint', { endpointId, enabled: false }, stranger),
      unaryCall(gateway, 'DeleteWebhookEndpoint', { endpointId }, stranger),
      unaryCall(gateway, 'RotateWebhookSecret', { endpointId }, stranger),
      unaryCall(gateway, 'ListWebhookDeliveries', { endpointId }, stranger),
      unaryCall(gateway, 'ReplayWebhookDelivery', { deliveryId: randomUUID() }, stranger),
      unaryCall(gateway, 'ListDeliveryAttempts', { deliveryId: randomUUID() }, stranger),
    ])
      expect((await remoteError(call)).grpcStatus).toBe(GrpcStatus.NOT_FOUND);
    const mine = await unaryCall(gateway, 'ListWebhookEndpoints', {}, await owner());
    expect(mine.endpoints.find((e) => e.id === endpointId)?.enabled).toBe(true);
  });

  it('refuses MEMBERs and client tokens on webhooks and the audit log, and lets them read the events feed', async () => {
    const member = { authorization: await bed.tokens.bearer(tenant, 'MEMBER') };
    const client = { authorization: await bed.tokens.clientBearer(tenant, ['products:read']) };
    for (const metadata of [member, client]) {
      for (const call of [
        unaryCall(gateway, 'ListWebhookEndpoints', {}, metadata),
        unaryCall(gateway, 'ListAuditEntries', {}, metadata),
        unaryCall(gateway, 'ExportAuditEntries', {}, metadata),
      ])
        expect((await remoteError(call)).grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
      const feed = await unaryCall(gateway, 'ListEvents', {}, metadata);
      expect(feed.eventsJson).toEqual([]);
    }
  });

  it('answers bad input with INVALID_ARGUMENT and its code', async () => {
    const cases: Array<[Promise<unknown>, string]> = [
      [
        unaryCall(
          gateway,
          'CreateWebhookEndpoint',
          { url: 'ftp://x', types: ['tier.changed'] },
          await owner(),
        ),
        'ENDPOINT_URL_INVALID',
      ],
      [
        unaryCall(
          gateway,
          'CreateWebhookEndpoint',
          { url: 'https://169.254.169.254/', types: ['tier.changed'] },
          await owner(),
        ),
        'ENDPOINT_ADDRESS_FORBIDDEN',
      ],
      [unaryCall(gateway, 'ListEvents', { after: 'not-a-cursor' }, await owner()), 'CURSOR_INVALID'],
      [unaryCall(gateway, 'ListEvents', { types: ['nope'] }, await owner()), 'EVENT_TYPES_INVALID'],
      [
        unaryCall(
          gateway,
          'ListAuditEntries',
          { from: '2020-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
          await owner(),
        ),
        'AUDIT_RANGE_TOO_LONG',
      ],
      [unaryCall(gateway, 'ListAuditEntries', { from: 'yesterday' }, await owner()), 'AUDIT_RANGE_INVALID'],
      [unaryCall(gateway, 'ListAuditEntries', { cursor: '%%%' }, await owner()), 'CURSOR_INVALID'],
    ];
    for (const [call, code] of cases) {
      const error = await remoteError(call);
      expect([error.grpcStatus, error.reason]).toEqual([GrpcStatus.INVALID_ARGUMENT, code]);
    }
  });

  it('reads one endpoint and queues a signed test event to it alone; a disabled one is ENDPOINT_DISABLED', async () => {
    const created = await create();
    const endpointId = created.endpoint?.id ?? '';
    const one = await unaryCall(gateway, 'GetWebhookEndpoint', { endpointId }, await owner());
    expect([one.id, JSON.stringify(one).includes('whsec_')]).toEqual([endpointId, false]);
    const delivery = await unaryCall(gateway, 'SendTestWebhook', { endpointId }, await owner());
    expect(delivery).toMatchObject({ endpointId, eventType: 'webhook.test' });
    const listed = await unaryCall(gateway, 'ListWebhookDeliveries', { endpointId }, await owner());
    expect(listed.deliveries.map((d) => d.id)).toContain(delivery.id);
    const feed = await unaryCall(gateway, 'ListEvents', {}, await owner());
    expect(feed.eventsJson.join()).not.toContain('webhook.test');

    await unaryCall(gateway, 'UpdateWebhookEndpoint', { endpointId, enabled: false }, await owner());
    const disabled = await remoteError(unaryCall(gateway, 'SendTestWebhook', { endpointId }, await owner()));
    expect([disabled.grpcStatus, disabled.reason]).toEqual([
      GrpcStatus.FAILED_PRECONDITION,
      'ENDPOINT_DISABLED',
    ]);
    const stranger = await owner(randomUUID());
    for (const call of [
      unaryCall(gateway, 'GetWebhookEndpoint', { endpointId }, stranger),
      unaryCall(gateway, 'SendTestWebhook', { endpointId }, stranger),
    ])
      expect((await remoteError(call)).reason).toBe('ENDPOINT_NOT_FOUND');
    const member = { authorization: await bed.tokens.bearer(tenant, 'MEMBER') };
    const refused = await remoteError(unaryCall(gateway, 'SendTestWebhook', { endpointId }, member));
    expect(refused.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
  });

  it('refuses a caller service the allowlist does not name', async () => {
    const error = await remoteError(unaryCall(adoption, 'ListEvents', {}, await owner()));
    expect(error.grpcStatus).toBe(GrpcStatus.PERMISSION_DENIED);
  });
});
