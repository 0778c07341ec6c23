import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import type { DomainEvent } from '@tap/contracts';
import { infraUrls } from '@tap/testkit';
import { openIdentityFixtures, type IdentityFixtures } from './support/identity-fixtures.js';
import { startSystem, type System } from './support/system.js';
import { askToJoin, gatedDomain, pendingRequestOf } from './support/team.js';
import { waitFor } from './support/wait-for.js';

/**
 * The producers of the outbound catalogue, black box: what the gateway's callers do reaches the
 * domain stream as member.*, oauth_client.*, tier.changed and audit entries, and no secret does.
 */
describe('domain events and audit entries of what callers do through the gateway', () => {
  let system: System;
  let fx: IdentityFixtures;
  let nc: NatsConnection;

  beforeAll(async () => {
    system = await startSystem('domain_events', { trustProxyHops: 1 });
    fx = await openIdentityFixtures(system);
    nc = await connect({ servers: infraUrls().natsUrl });
  });
  afterAll(async () => {
    await nc?.drain();
    await fx?.close();
    await system?.stop();
  });

  const stored = async (tenantId: string): Promise<DomainEvent[]> => {
    const jsm = await jetstreamManager(nc);
    const info = await jsm.streams.info(system.domain.streamName);
    const events: DomainEvent[] = [];
    for (let seq = info.state.first_seq; info.state.messages > 0 && seq <= info.state.last_seq; seq += 1) {
      const message = await jsm.streams.getMessage(system.domain.streamName, { seq }).catch(() => null);
      const event = message?.json<DomainEvent>();
      if (event?.tenantId === tenantId) events.push(event);
    }
    return events;
  };
  const actions = (events: DomainEvent[]) =>
    events.filter((e) => e.type === 'audit.entry_recorded').map((e) => (e.data as { action: string }).action);

  it("publishes a client's creation, rotation and deletion with their audit entries, none holding a secret", async () => {
    const owner = await fx.tenantWithOwner('Domain Events');
    const other = await fx.tenantWithOwner('Someone Else');
    const session = await fx.signIn(owner);
    const bearer = { authorization: `Bearer ${session.accessToken}` };
    const created = await system.http('POST', '/api/v1/oauth/clients', {
      headers: bearer,
      body: { name: 'ERP sync', scopes: ['products:read'] },
    });
    expect(created.status).toBe(201);
    const { clientId, clientSecret } = (created.body as { data: { clientId: string; clientSecret: string } })
      .data;
    const rotated = await system.http('POST', `/api/v1/oauth/clients/${clientId}/rotate`, {
      headers: bearer,
    });
    expect(rotated.status).toBe(200);
    const newSecret = (rotated.body as { data: { clientSecret: string } }).data.clientSecret;
    expect(
      (await system.http('DELETE', `/api/v1/oauth/clients/${clientId}`, { headers: bearer })).status,
    ).toBe(204);

    await waitFor(async () => {
      const events = await stored(owner.tenantId);
      return events.some((e) => e.type === 'oauth_client.deleted') &&
        actions(events).includes('oauth_client.deleted')
        ? true
        : undefined;
    }, 15_000);
    const events = await stored(owner.tenantId);
    expect(events.filter((e) => e.type.startsWith('oauth_client.')).map((e) => e.type)).toEqual([
      'oauth_client.created',
      'oauth_client.secret_rotated',
      'oauth_client.deleted',
    ]);
    expect(events.find((e) => e.type === 'member.joined')?.data).toEqual({
      role: 'OWNER',
      email: owner.email,
    });
    expect(actions(events)).toEqual(
      expect.arrayContaining([
        'session.signed_in',
        'oauth_client.created',
        'oauth_client.secret_rotated',
        'oauth_client.deleted',
      ]),
    );
    const signIn = events.find((e) => (e.data as { action?: string }).action === 'session.signed_in');
    expect(signIn?.data).toMatchObject({ actor: { type: 'user', id: owner.userId }, outcome: 'SUCCESS' });
    expect((signIn?.data as { ip?: string }).ip).toBeTruthy();
    // Only this tenant's, and no secret, token or password anywhere.
    expect(JSON.stringify(events)).not.toContain(other.userId);
    const all = JSON.stringify(events);
    for (const secret of [clientSecret, newSecret, session.accessToken, session.refreshToken, owner.password])
      expect(all).not.toContain(secret);
  });

  it("lists the run's client creation, rotation and a member's deactivation in the tenant's audit log, nothing of another tenant's", async () => {
    const owner = await fx.tenantWithOwner('Audit Trail');
    const other = await fx.tenantWithOwner('Audit Stranger');
    const member = await fx.addUser(owner.tenantId, 'MEMBER');
    const bearer = { authorization: `Bearer ${(await fx.signIn(owner)).accessToken}` };
    const strangerBearer = { authorization: `Bearer ${(await fx.signIn(other)).accessToken}` };
    const created = await system.http('POST', '/api/v1/oauth/clients', {
      headers: bearer,
      body: { name: 'Audit client', scopes: ['products:read'] },
    });
    const { clientId } = (created.body as { data: { clientId: string } }).data;
    const rotation = await system.http('POST', `/api/v1/oauth/clients/${clientId}/rotate`, {
      headers: bearer,
    });
    expect(rotation.status).toBe(200);
    const rotationRequestId = rotation.headers.get('x-request-id');
    expect(rotationRequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      (await system.http('POST', `/api/v1/tenant/members/${member.userId}/deactivate`, { headers: bearer }))
        .status,
    ).toBe(200);
    await system.http('POST', '/api/v1/oauth/clients', {
      headers: strangerBearer,
      body: { name: 'Stranger client', scopes: ['products:read'] },
    });

    type Entry = {
      action: string;
      target: { id: string } | null;
      actor: { id: string };
      requestId: string | null;
    };
    const listed = await waitFor(async () => {
      const page = await system.http('GET', '/api/v1/tenant/audit-events', { headers: bearer });
      const entries = (page.body as { data?: { entries: Entry[] } }).data?.entries ?? [];
      const seen = entries.map((e) => e.action);
      return ['oauth_client.created', 'oauth_client.secret_rotated', 'member.deactivated'].every((a) =>
        seen.includes(a),
      )
        ? entries
        : undefined;
    }, 20_000);
    expect(listed.find((e) => e.action === 'oauth_client.created')?.target?.id).toBe(clientId);
    expect(listed.find((e) => e.action === 'member.deactivated')?.target?.id).toBe(member.userId);
    // The entry names the request the caller got back in `x-request-id`.
    expect(listed.find((e) => e.action === 'oauth_client.secret_rotated')?.requestId).toBe(rotationRequestId);
    // Nothing of the other tenant: neither its owner's sign-in nor its client.
    expect(JSON.stringify(listed)).not.toContain(other.userId);
    expect(JSON.stringify(listed)).not.toContain('Stranger client');
  });

  it('announces an approved join as member.joined, and audits the approval and a rejection', async () => {
    const owner = await fx.tenantWithOwner('Joins');
    const session = await fx.signIn(owner);
    const headers = { authorization: `Bearer ${session.accessToken}` };
    const domain = await gatedDomain(fx, owner.tenantId);
    const approvedEmail = await askToJoin(system, domain);
    const rejectedEmail = await askToJoin(system, domain);
    const approved = await pendingRequestOf(system, headers, approvedEmail);
    const rejected = await pendingRequestOf(system, headers, rejectedEmail);
    const approve = await system.http('POST', `/api/v1/tenant/join-requests/${approved.id}/approve`, {
      headers,
    });
    expect(approve.status).toBe(200);
    const reject = await system.http('POST', `/api/v1/tenant/join-requests/${rejected.id}/reject`, {
      headers,
    });
    expect(reject.status).toBe(200);
    await waitFor(async () => {
      const events = await stored(owner.tenantId);
      return actions(events).includes('join_request.rejected') &&
        events.some((e) => e.type === 'member.joined' && e.subject['userId'] === approved.userId)
        ? true
        : undefined;
    }, 15_000);
    const events = await stored(owner.tenantId);
    // The join awaiting approval was never a member; the rejected one never becomes one.
    expect(events.filter((e) => e.subject['userId'] === rejected.userId)).toEqual([]);
    expect(events.find((e) => e.subject['userId'] === approved.userId)?.data).toMatchObject({
      role: 'MEMBER',
      email: approvedEmail,
    });
    const audit = events.filter((e) => e.type === 'audit.entry_recorded').map((e) => e.data);
    expect(audit).toEqual(
      expect.arrayContaining([
        {
          actor: { type: 'user', id: owner.userId, email: owner.email },
          action: 'join_request.approved',
          target: { type: 'user', id: approved.userId },
          outcome: 'SUCCESS',
          requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
        {
          actor: { type: 'user', id: owner.userId, email: owner.email },
          action: 'join_request.rejected',
          target: { type: 'user', id: rejected.userId },
          outcome: 'SUCCESS',
          requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        },
      ]),
    );
  });

  it("publishes a tier change of the tenant as tier.changed, and shows it from and to in the tenant's audit log", async () => {
    const owner = await fx.tenantWithOwner('Tiered');
    const { tenantId } = owner;
    await waitFor(
      async () => ((await stored(tenantId)).some((e) => e.type === 'tier.changed') ? true : undefined),
      15_000,
    );
    await system.setTier(tenantId, 'CORE');
    const changed = await waitFor(
      async () => (await stored(tenantId)).find((e) => e.type === 'tier.changed' && e.data['to'] === 'CORE'),
      15_000,
    );
    const bearer = { authorization: `Bearer ${(await fx.signIn(owner)).accessToken}` };
    type Entry = {
      action: string;
      actor: { type: string };
      change: { from: string | null; to: string } | null;
    };
    const entry = await waitFor(async () => {
      const page = await system.http('GET', '/api/v1/tenant/audit-events?action=tier.changed', {
        headers: bearer,
      });
      return (page.body as { data?: { entries: Entry[] } }).data?.entries[0];
    }, 20_000);
    expect(entry).toEqual(
      expect.objectContaining({
        actor: expect.objectContaining({ type: 'operator' }),
        change: { from: changed.data['from'], to: 'CORE' },
      }),
    );
  });
});
