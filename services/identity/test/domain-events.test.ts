import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jetstreamManager } from '@nats-io/jetstream';
import type { DomainEvent } from '@tap/contracts';
import { unaryCall } from '@tap/grpc-kit';
import { createNatsDependency, type NatsDependency } from '@tap/runtime';
import { createLogger } from '@tap/telemetry';
import { startLocalServer, testNamespace, waitFor, type StartedServer } from '@tap/testkit';
import { natsDomainEventSink } from '../src/events/domain-event-sink.js';
import { AUDIT_OUTBOX_COLLECTION } from '../src/store/audit-outbox-repository.js';
import { openIdentityBed, type IdentityBed } from './support/identity-bed.js';

/**
 * member.*, oauth_client.* and audit.entry_recorded on a NATS server of this file's own, which
 * the bus-down test stops and starts again on the same port and data folder.
 */
describe('identity publishes its domain events and audit entries through its outboxes (real NATS)', () => {
  const namespace = testNamespace('identity_events');
  const streamName = `${namespace}_DOMAIN`;
  const subjectPrefix = `${namespace}_domain`;
  const dataDir = mkdtempSync(join(tmpdir(), 'identity-events-'));
  let server: StartedServer;
  let port: number;
  let nats: NatsDependency;
  let bed: IdentityBed;
  const abort = new AbortController();

  beforeAll(async () => {
    server = await startLocalServer('nats', { ports: 'free', dataDir, env: process.env });
    port = Number(new URL(server.url).port);
    nats = createNatsDependency({
      servers: server.url,
      name: 'identity-events-test',
      logger: createLogger({ service: 'identity-test', level: 'silent' }),
      signal: abort.signal,
    });
    await nats.connected();
    bed = await openIdentityBed('identity_events', {
      events: natsDomainEventSink({ connection: () => nats.current(), streamName, subjectPrefix }),
    });
  });
  afterAll(async () => {
    abort.abort();
    await bed?.close();
    await nats?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** Every event the stream holds, in order. */
  const stored = async (): Promise<DomainEvent[]> => {
    const nc = await nats.connected();
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(streamName).catch(() => undefined);
    if (!info) return [];
    const events: DomainEvent[] = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq += 1) {
      const message = await jsm.streams.getMessage(streamName, { seq }).catch(() => null);
      if (message) events.push(message.json<DomainEvent>());
    }
    return events;
  };
  const ofTenant = async (tenantId: string, type?: string) =>
    (await stored()).filter((e) => e.tenantId === tenantId && (type === undefined || e.type === type));
  const pendingAudit = () => bed.db.collection(AUDIT_OUTBOX_COLLECTION).countDocuments({});
  const pendingMarks = async () =>
    (await bed.db.collection('users').countDocuments({ announcePending: true })) +
    (await bed.db.collection('oauth_clients').countDocuments({ announcePending: true }));
  /** Waits until the outboxes are empty, whichever publishes (the write's own announcement or the relay). */
  const drained = () =>
    waitFor('the outboxes drained', async () => {
      await bed.app.relayOutbox();
      return (await pendingAudit()) === 0 && (await pendingMarks()) === 0;
    });

  it('announces a member joining, changing role, deactivated and reactivated, each once, with role and e-mail', async () => {
    const owner = await bed.tenantWithOwner('Events Co');
    const ownerBearer = {
      authorization: `Bearer ${(await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password })).accessToken}`,
    };
    const email = `member@${namespace.replace(/_/g, '-')}.example`;
    const member = await unaryCall(
      bed.client,
      'CreateUser',
      {
        tenantId: owner.tenantId,
        role: 'MEMBER',
        user: { email, firstName: 'Mo', lastName: 'Member', password: 'a long enough password 1' },
      },
      bed.operator,
    );
    // Each change announced before the next is made: changes made before their announcement
    // collapse into one (the bus-down test shows that).
    await drained();
    await unaryCall(bed.client, 'ChangeMemberRole', { userId: member.id, role: 'ADMIN' }, ownerBearer);
    await drained();
    await unaryCall(bed.client, 'DeactivateMember', { userId: member.id }, ownerBearer);
    await drained();
    await unaryCall(bed.client, 'ReactivateMember', { userId: member.id }, ownerBearer);
    await drained();
    await unaryCall(bed.client, 'EndMemberSessions', { userId: member.id }, ownerBearer);
    // A second sign-in of the owner, ended from the first session.
    await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password });
    expect(await unaryCall(bed.client, 'EndOtherSessions', {}, ownerBearer)).toMatchObject({ revoked: 1 });
    await drained();
    // Republishing what was announced changes nothing: the marks are gone, the ids are the same.
    expect((await bed.app.relayOutbox()).members).toMatchObject({ pending: 0, published: 0 });

    const events = (await ofTenant(owner.tenantId)).filter((e) => e.type.startsWith('member.'));
    expect(events.filter((e) => e.subject['userId'] === owner.userId)).toEqual([
      expect.objectContaining({
        type: 'member.joined',
        subject: { userId: owner.userId },
        data: { role: 'OWNER', email: owner.email },
      }),
    ]);
    const memberEvents = events.filter((e) => e.subject['userId'] === member.id);
    expect(memberEvents.map((e) => e.type)).toEqual([
      'member.joined',
      'member.role_changed',
      'member.deactivated',
      'member.reactivated',
    ]);
    expect(memberEvents[1]?.data).toEqual({ from: 'MEMBER', to: 'ADMIN', email });
    expect(memberEvents[3]?.data).toEqual({ role: 'ADMIN', email });
    expect(new Set(memberEvents.map((e) => e.id)).size).toBe(4);

    const audit = await ofTenant(owner.tenantId, 'audit.entry_recorded');
    const actions = audit.map((e) => (e.data as { action: string }).action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'session.signed_in',
        'member.role_changed',
        'member.deactivated',
        'member.reactivated',
        'member.sessions_ended',
      ]),
    );
    expect(audit.find((e) => (e.data as { action: string }).action === 'session.others_ended')?.data).toEqual(
      {
        actor: { type: 'user', id: owner.userId, email: owner.email },
        action: 'session.others_ended',
        target: { type: 'user', id: owner.userId },
        outcome: 'SUCCESS',
      },
    );
    expect(audit.find((e) => (e.data as { action: string }).action === 'member.role_changed')?.data).toEqual({
      actor: { type: 'user', id: owner.userId, email: owner.email },
      action: 'member.role_changed',
      target: { type: 'user', id: member.id },
      outcome: 'SUCCESS',
      change: { from: 'MEMBER', to: 'ADMIN' },
    });
  });

  it('announces OAuth client creation, rotation and deletion, audits each, and no entry holds a secret or token', async () => {
    const owner = await bed.tenantWithOwner('Clients Events');
    const session = await unaryCall(bed.client, 'Login', {
      email: owner.email,
      password: owner.password,
      client: { userAgent: 'jest/1', address: '203.0.113.7' },
    });
    const ownerBearer = { authorization: `Bearer ${session.accessToken}` };
    const failed = await unaryCall(bed.client, 'Login', {
      email: owner.email,
      password: 'wrong password here',
    }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    const created = await unaryCall(
      bed.client,
      'CreateOAuthClient',
      { name: 'ERP', scopes: ['products:read'], tenantId: '' },
      ownerBearer,
    );
    const clientId = created.client!.clientId;
    const rotated = await unaryCall(
      bed.client,
      'RotateOAuthClientSecret',
      { clientId, tenantId: '' },
      ownerBearer,
    );
    await unaryCall(bed.client, 'DeleteOAuthClient', { clientId, tenantId: '' }, ownerBearer);
    await drained();
    await waitFor('the deleted client removed once announced', async () => {
      await bed.app.relayOutbox();
      return (await bed.db.collection('oauth_clients').countDocuments({ _id: clientId as never })) === 0;
    });

    const clientEvents = (await ofTenant(owner.tenantId)).filter((e) => e.type.startsWith('oauth_client.'));
    expect(clientEvents.map((e) => [e.type, e.subject])).toEqual([
      ['oauth_client.created', { clientId }],
      ['oauth_client.secret_rotated', { clientId }],
      ['oauth_client.deleted', { clientId }],
    ]);
    expect(clientEvents[0]?.data).toEqual({ name: 'ERP', scopes: ['products:read'] });

    const audit = await ofTenant(owner.tenantId, 'audit.entry_recorded');
    const byAction = (action: string) =>
      audit.filter((e) => (e.data as { action: string }).action === action).map((e) => e.data);
    expect(byAction('session.signed_in')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ outcome: 'SUCCESS', ip: '203.0.113.7', userAgent: 'jest/1' }),
        expect.objectContaining({ outcome: 'FAILURE', reason: 'INVALID_CREDENTIALS' }),
      ]),
    );
    for (const action of ['oauth_client.created', 'oauth_client.secret_rotated', 'oauth_client.deleted'])
      expect(byAction(action)).toEqual([
        {
          actor: { type: 'user', id: owner.userId, email: owner.email },
          action,
          target: { type: 'oauth_client', id: clientId },
          outcome: 'SUCCESS',
        },
      ]);
    // Nothing secret in anything this suite published: secrets, tokens, the password.
    const everything = JSON.stringify(await stored());
    for (const secret of [
      created.clientSecret,
      rotated.clientSecret,
      session.accessToken,
      session.refreshToken,
      owner.password,
      'wrong password here',
    ])
      expect(everything).not.toContain(secret);
  });

  it('keeps every change while the bus is down and publishes each once after it comes back', async () => {
    const owner = await bed.tenantWithOwner('Bus Down');
    const ownerBearer = {
      authorization: `Bearer ${(await unaryCall(bed.client, 'Login', { email: owner.email, password: owner.password })).accessToken}`,
    };
    await drained();
    const before = (await stored()).length;

    await server.stop();
    const created = await unaryCall(
      bed.client,
      'CreateOAuthClient',
      { name: 'While down', scopes: ['products:read'], tenantId: '' },
      ownerBearer,
    );
    const clientId = created.client!.clientId;
    const member = await unaryCall(
      bed.client,
      'CreateUser',
      {
        tenantId: owner.tenantId,
        role: 'MEMBER',
        user: {
          email: `late@${namespace.replace(/_/g, '-')}.example`,
          firstName: 'La',
          lastName: 'Te',
          password: 'a long enough password 2',
        },
      },
      bed.operator,
    );
    await unaryCall(bed.client, 'ChangeMemberRole', { userId: member.id, role: 'ADMIN' }, ownerBearer);
    const down = await bed.app.relayOutbox();
    expect(down.members.failed + down.clients.failed + down.audit.failed).toBeGreaterThan(0);
    expect(await pendingMarks()).toBeGreaterThan(0);
    expect(await pendingAudit()).toBeGreaterThan(0);

    server = await startLocalServer('nats', { ports: port, dataDir, env: process.env });
    await waitFor('the client reconnected', async () => {
      try {
        await nats.current()?.flush();
        return true;
      } catch {
        return false;
      }
    });
    await drained();
    // A second and third pass find nothing: each change was published once.
    await bed.app.relayOutbox();
    await bed.app.relayOutbox();

    const after = (await stored()).slice(before);
    const ids = after.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    const lateMember = after.filter((e) => e.subject['userId'] === member.id).map((e) => e.type);
    // Joined and promoted while the bus was down: one joined, as the role it has now.
    expect(lateMember).toEqual(['member.joined']);
    expect(after.find((e) => e.subject['userId'] === member.id)?.data).toMatchObject({ role: 'ADMIN' });
    expect(after.filter((e) => e.subject['clientId'] === clientId).map((e) => e.type)).toEqual([
      'oauth_client.created',
    ]);
    const actions = after
      .filter((e) => e.type === 'audit.entry_recorded')
      .map((e) => (e.data as { action: string }).action);
    expect(actions.filter((a) => a === 'oauth_client.created')).toHaveLength(1);
    expect(actions.filter((a) => a === 'member.role_changed')).toHaveLength(1);
  });
});
