import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DomainError } from '@tap/errors';
import { createKeyedLock } from '@tap/runtime';
import { startSmtpSink, type SmtpSink } from '@tap/testkit';
import { createKeyedHasher } from '../src/crypto/keyed-hash.js';
import { createPasswordHasher } from '../src/crypto/passwords.js';
import { INVITATION_CLAIM_TIMEOUT_MS } from '../src/domain/invitation.js';
import { MAX_GRACE_USES } from '../src/domain/session.js';
import { smtpMailer } from '@tap/mail';
import { acceptInvitation, type ActivateWithSeat } from '../src/operations/accept-invitation.js';
import type { IdentityContext } from '../src/operations/context.js';
import { createInvitation } from '../src/operations/create-invitation.js';
import { inspectInvitation } from '../src/operations/inspect-invitation.js';
import { externalIdentitiesRepository } from '../src/store/external-identities-repository.js';
import { invitationsRepository } from '../src/store/invitations-repository.js';
import { joinRepository } from '../src/store/join-repository.js';
import { magicLinksRepository } from '../src/store/magic-links-repository.js';
import { oauthClientsRepository } from '../src/store/oauth-clients-repository.js';
import { seatIntentsRepository } from '../src/store/seat-intents-repository.js';
import { redisSessionRevoker } from '../src/store/session-revocations.js';
import { sessionsRepository } from '../src/store/sessions-repository.js';
import { tenantsRepository } from '../src/store/tenants-repository.js';
import { usersRepository } from '../src/store/users-repository.js';
import { grantingSeatLedger } from './support/granting-seat-ledger.js';
import { GRACE_MS, openIdentityBed, type IdentityBed } from './support/identity-bed.js';
import { createLogger } from '@tap/telemetry';
import { createAuditTrail } from '../src/operations/audit-trail.js';
import { auditOutboxRepository } from '../src/store/audit-outbox-repository.js';

/** The domain error code an operation failed with, or 'OK'. */
async function codeOf(call: Promise<unknown>): Promise<string> {
  try {
    await call;
    return 'OK';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/**
 * The acceptance's failure paths, below the RPC: identity's real stores on FerretDB and Redis,
 * the link mailed over real SMTP, and the one stand-in a test needs, entitlements refusing the
 * seat (the seat ledger lives on another branch; `activateWithSeat` is its only entry point).
 */
describe('accepting an invitation: nothing half-made, the link kept usable', () => {
  let bed: IdentityBed;
  let sink: SmtpSink;
  let ctx: IdentityContext;
  let mail: { linkUrl: string; send: (m: { to: string; subject: string; text: string }) => Promise<void> };
  let owner: Awaited<ReturnType<IdentityBed['tenantWithOwner']>>;
  let n = 0;
  const address = () => `invitee-${(n += 1)}@acceptance.example`;
  const refuseSeat: ActivateWithSeat = async () => {
    throw new DomainError('LIMIT_EXCEEDED', 'PERMISSION_DENIED', 'No seat left', {
      details: { limit: 'MAX_USERS', current: 3, requested: 1, available: 0 },
    });
  };

  beforeAll(async () => {
    bed = await openIdentityBed('invitation_acceptance');
    sink = await startSmtpSink();
    mail = {
      linkUrl: 'https://app.example/console/accept-invitation',
      ...smtpMailer({ smtpUrl: sink.url, from: 'x@example.com' }),
    };
    ctx = {
      tenants: tenantsRepository(bed.db),
      users: usersRepository(bed.db),
      sessions: sessionsRepository(bed.db),
      clients: oauthClientsRepository(bed.db),
      magicLinks: magicLinksRepository(bed.db),
      joins: joinRepository(bed.db),
      externalIdentities: externalIdentitiesRepository(bed.db),
      invitations: invitationsRepository(bed.db),
      seatLedger: grantingSeatLedger(),
      seatIntents: seatIntentsRepository(bed.db),
      keyRing: bed.app.keyRing,
      locks: createKeyedLock(),
      revoker: redisSessionRevoker(bed.redis, bed.revocationPrefix),
      hasher: createKeyedHasher('h'.repeat(40)),
      passwords: createPasswordHasher(),
      refreshPolicy: { reuseGraceMs: GRACE_MS, maxGraceUses: MAX_GRACE_USES },
      // The real outbox, without a bus: the entries wait there.
      audit: createAuditTrail({
        outbox: auditOutboxRepository(bed.db),
        sink: undefined,
        now: bed.clock.now,
        newId: () => crypto.randomUUID(),
        logger: createLogger({ service: 'identity-test', level: 'silent' }),
      }),
      now: bed.clock.now,
      newId: () => crypto.randomUUID(),
    };
    await ctx.invitations.ensureIndexes();
    owner = await bed.tenantWithOwner('Acceptance');
  });
  afterAll(async () => {
    await sink?.stop();
    await bed?.close();
  });

  const ownerCaller = () => ({
    userId: owner.userId,
    tenantId: owner.tenantId,
    role: 'OWNER',
    sessionId: 's',
  });
  const invite = async (email: string, role = 'MEMBER') => {
    const since = sink.messages.length;
    const invitation = await createInvitation(ctx, mail, ownerCaller(), { email, role });
    const message = await sink.waitForMessage(email, { since, timeoutMs: 5_000 });
    const token = /#token=(\S+)/.exec(message.text)?.[1] ?? '';
    return { invitation, token };
  };
  const input = (token: string, more: Partial<Parameters<typeof acceptInvitation>[1]> = {}) => ({
    token,
    firstName: 'Nia',
    lastName: 'New',
    password: '',
    confirmLink: false,
    ...more,
  });

  it('leaves no user behind when the seat is refused, and the same link then works', async () => {
    const email = address();
    const { token } = await invite(email);
    expect(await codeOf(acceptInvitation(ctx, input(token), refuseSeat))).toBe('LIMIT_EXCEEDED');
    expect(await ctx.users.findCredentials(email)).toBeUndefined();
    expect((await inspectInvitation(ctx, token)).email).toBe(email);

    const session = await acceptInvitation(ctx, input(token));
    expect(session.user).toMatchObject({ email, tenantId: owner.tenantId, active: true });
    expect(await codeOf(acceptInvitation(ctx, input(token)))).toBe('INVALID_OR_EXPIRED');
  });

  it('puts a linked account back where it was when the seat is refused', async () => {
    const other = await bed.tenantWithOwner('Elsewhere');
    const email = address();
    // A MEMBER of the other tenant, with a live session there.
    const { invitation: first, token: firstToken } = await (async () => {
      const since = sink.messages.length;
      const invitation = await createInvitation(
        ctx,
        mail,
        { userId: other.userId, tenantId: other.tenantId, role: 'OWNER', sessionId: 's' },
        { email, role: 'MEMBER' },
      );
      const message = await sink.waitForMessage(email, { since, timeoutMs: 5_000 });
      return { invitation, token: /#token=(\S+)/.exec(message.text)?.[1] ?? '' };
    })();
    expect(first.tenantId).toBe(other.tenantId);
    const there = await acceptInvitation(ctx, input(firstToken));
    const before = there.user;

    const { token } = await invite(email, 'ADMIN');
    expect(await codeOf(acceptInvitation(ctx, input(token, { confirmLink: true }), refuseSeat))).toBe(
      'LIMIT_EXCEEDED',
    );
    const after = await ctx.users.findCredentials(email);
    expect(after?.user).toMatchObject({
      id: before.id,
      tenantId: other.tenantId,
      role: 'MEMBER',
      active: true,
    });
    const liveThere = await ctx.sessions.listLive(other.tenantId, before.id, ctx.now());
    expect(liveThere.map((s) => s.revokedAt)).toEqual([null]);
    expect((await inspectInvitation(ctx, token)).existingAccount).toBe(true);
  });

  it('lets exactly one of many parallel acceptances win and makes one user', async () => {
    const email = address();
    const { token } = await invite(email);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, () => acceptInvitation(ctx, input(token))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'INVALID_OR_EXPIRED' });
    expect(await bed.db.collection('users').countDocuments({ email })).toBe(1);
  });

  it('lets an abandoned claim be taken again only after its timeout', async () => {
    const { invitation, token } = await invite(address());
    const now = ctx.now();
    // A process that died between claiming and finishing.
    expect(await ctx.invitations.claim(invitation.id, now, new Date(now.getTime() - 1))).toBeDefined();
    expect(await codeOf(acceptInvitation(ctx, input(token)))).toBe('INVALID_OR_EXPIRED');
    bed.clock.advance(INVITATION_CLAIM_TIMEOUT_MS + 1_000);
    expect((await acceptInvitation(ctx, input(token))).user.active).toBe(true);
  });

  it('refuses a link past its 7 days', async () => {
    const { token } = await invite(address());
    bed.clock.advance(7 * 24 * 3_600_000 + 1);
    expect(await codeOf(inspectInvitation(ctx, token))).toBe('INVALID_OR_EXPIRED');
    expect(await codeOf(acceptInvitation(ctx, input(token)))).toBe('INVALID_OR_EXPIRED');
  });
});
