import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { infraUrls, testNamespace } from '@tap/testkit';
import { MongoClient, type Db } from 'mongodb';
import type { Invitation } from '../src/domain/invitation.js';
import type { InvitationsRepository } from '../src/operations/ports/invitations-repository.js';
import { invitationsRepository } from '../src/store/invitations-repository.js';

const DAY = 24 * 3_600_000;
const now = new Date('2026-11-21T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);

/** The invitations store on real FerretDB: the pending slot, the claim, and the sweep. */
describe('the invitations repository', () => {
  let mongo: MongoClient;
  let db: Db;
  let invitations: InvitationsRepository;

  beforeAll(async () => {
    mongo = new MongoClient(infraUrls().mongoUrl);
    db = mongo.db(testNamespace('invitations_repo'));
    invitations = invitationsRepository(db);
    await invitations.ensureIndexes();
  });
  afterAll(async () => {
    await db?.dropDatabase();
    await mongo?.close();
  });

  const invitation = (email: string, overrides: Partial<Invitation> = {}): Invitation => ({
    id: randomUUID(),
    tenantId: 't1',
    email,
    role: 'MEMBER',
    status: 'PENDING',
    invitedBy: { id: 'u1', email: 'owner@example.com' },
    tokenHash: 'hash',
    createdAt: now,
    expiresAt: at(7 * DAY),
    claimedAt: null,
    ...overrides,
  });

  it('holds one pending invitation per tenant and address, also when inserted at once', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => invitations.insert(invitation('same@example.com'))),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'INVITATION_PENDING' });
    // Another tenant may invite the same address.
    await invitations.insert(invitation('same@example.com', { tenantId: 't2' }));
  });

  it('frees the slot once revoked or accepted, so the address can be invited again', async () => {
    const first = invitation('again@example.com');
    await invitations.insert(first);
    expect(await invitations.revoke('t1', first.id, now)).toMatchObject({ status: 'REVOKED' });
    expect(await invitations.revoke('t1', first.id, now)).toBeUndefined();
    const second = invitation('again@example.com');
    await invitations.insert(second);
    const claimed = await invitations.claim(second.id, now, at(-60_000));
    expect(claimed?.status).toBe('ACCEPTING');
    await invitations.complete(second.id, claimed!.claimedAt!, now);
    expect((await invitations.find(second.id))?.status).toBe('ACCEPTED');
    await invitations.insert(invitation('again@example.com'));
  });

  // One claim at a time, as the operations run it (under the invitation's keyed lock): FerretDB
  // applies a conditional update as read-modify-write, so concurrent claims are serialised above
  // this store (operations/invitation-token.ts; the parallel acceptance tests prove one winner).
  it('claims a pending invitation once, and a released claim can be taken again', async () => {
    const one = invitation('claim@example.com');
    await invitations.insert(one);
    const claimed = await invitations.claim(one.id, now, at(-60_000));
    expect(claimed?.status).toBe('ACCEPTING');
    expect(await invitations.claim(one.id, now, at(-60_000))).toBeUndefined();
    await invitations.release(one.id, claimed!.claimedAt!);
    expect((await invitations.claim(one.id, now, at(-60_000)))?.status).toBe('ACCEPTING');
  });

  it("neither claims nor revokes another tenant's or an expired invitation, and sweeps expired ones", async () => {
    const expired = invitation('old@example.com', { createdAt: at(-8 * DAY), expiresAt: at(-DAY) });
    const live = invitation('live@example.com');
    await invitations.insert(expired);
    await invitations.insert(live);
    expect(await invitations.claim(expired.id, now, at(-60_000))).toBeUndefined();
    expect(await invitations.revoke('t2', live.id, now)).toBeUndefined();
    expect(await invitations.findInTenant('t2', live.id)).toBeUndefined();
    expect((await invitations.listPending('t1', now)).map((i) => i.id)).toContain(live.id);
    expect((await invitations.listPending('t1', now)).map((i) => i.id)).not.toContain(expired.id);
    expect(await invitations.deleteExpired(now)).toBeGreaterThanOrEqual(1);
    expect(await invitations.find(expired.id)).toBeUndefined();
    expect(await invitations.find(live.id)).toBeDefined();
  });
});
