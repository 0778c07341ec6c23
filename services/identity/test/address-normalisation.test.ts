import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { migrateAddressForms } from '../src/store/migrate-address-forms.js';
import { codeOf, openIdentityBed, type IdentityBed } from './support/identity-bed.js';

/*
 * One normalised form of every e-mail address and domain (issue #22; docs/identity.md, "E-mail
 * addresses and domains"): compared and stored as NFKC, lower case, IDNA A-label domain, and the
 * records written before that brought to it at start-up.
 */
describe('e-mail addresses and domains in one normalised form', () => {
  let bed: IdentityBed;
  let n = 0;
  const fresh = (label: string) => `${label}-${Date.now()}-${(n += 1)}`;

  beforeAll(async () => {
    bed = await openIdentityBed('address_forms');
  });
  afterAll(async () => {
    await bed?.close();
  });

  const joinDomains = () => bed.db.collection<{ _id: string; tenantId: string }>('join_domains');
  const requests = () =>
    bed.db.collection<{ _id: string; tenantId: string; email: string; status: string }>('join_requests');
  const sso = (email: string) =>
    unaryCall(bed.client, 'SsoSignIn', {
      provider: 'enterprise',
      subject: `sub-${email}`,
      email,
      emailVerified: true,
      givenName: 'Jo',
      familyName: 'Iner',
    });

  it('matches a join domain on the normalised form: a Unicode domain claimed one way is joined the other', async () => {
    const owner = await bed.tenantWithOwner('Bücher GmbH');
    const label = fresh('b\u00FCcher');
    await unaryCall(
      bed.client,
      'ClaimJoinDomain',
      { tenantId: owner.tenantId, domain: `${label}.example` },
      bed.operator,
    );
    const stored = await joinDomains().findOne({ tenantId: owner.tenantId });
    expect(stored?._id).toMatch(/^xn--/);
    // The same domain, decomposed and in capitals: one form, one queue.
    await sso(`joiner@${label.normalize('NFD').toUpperCase()}.example`);
    const pending = await unaryCall(
      bed.client,
      'ListJoinRequests',
      { tenantId: owner.tenantId },
      bed.operator,
    );
    expect(pending.requests.map((r) => r.email)).toEqual([`joiner@${stored?._id ?? ''}`]);
  });

  it('refuses confusable spellings of an address and of a join domain', async () => {
    const owner = await bed.tenantWithOwner('Kelvin Ltd');
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'ClaimJoinDomain',
          { tenantId: owner.tenantId, domain: '\uFF4Belvin.example' },
          bed.operator,
        ),
      ),
    ).toBe('JOIN_DOMAIN_INVALID');
    expect(await codeOf(sso(`joiner@\uFF4B${fresh('elvin')}.example`))).toBe('EMAIL_INVALID');
  });

  it('signs in one account however its address is spelt', async () => {
    const owner = await bed.tenantWithOwner('Spelling Ltd');
    const [local, domain] = owner.email.split('@') as [string, string];
    const login = await unaryCall(bed.client, 'Login', {
      email: ` ${local.toUpperCase()}@${domain.toUpperCase()} `,
      password: owner.password,
    });
    expect(login.user?.email).toBe(owner.email);
  });

  it('brings records stored in the old form to the normalised one at start-up, once, and leaves conflicts alone', async () => {
    const owner = await bed.tenantWithOwner('Old Forms Ltd');
    const users = bed.db.collection<{ _id: string; email: string } & Record<string, unknown>>('users');
    const base = {
      tenantId: owner.tenantId,
      firstName: 'Old',
      lastName: 'Form',
      role: 'MEMBER',
      active: true,
    };
    const tag = fresh('old');
    // As the lower-casing-only code stored them: a Unicode domain, a decomposed letter.
    const oldForms = [
      { _id: `${tag}-1`, email: `ada@b\u00FCcher-${tag}.example` },
      { _id: `${tag}-2`, email: `bo@bu\u0308cher-${tag}.example` },
      // Already normalised: untouched.
      { _id: `${tag}-3`, email: `cy@plain-${tag}.example` },
    ];
    await users.insertMany(
      oldForms.map((doc) => ({ ...base, ...doc, passwordHash: 'x', createdAt: new Date() })),
    );
    await joinDomains().insertOne({ _id: `k\u00F6ln-${tag}.example`, tenantId: owner.tenantId });
    await requests().insertOne({
      _id: `${tag}-r`,
      tenantId: owner.tenantId,
      email: `x@k\u00F6ln-${tag}.example`,
      status: 'PENDING',
    });

    await bed.app.prepare();

    const after = await users
      .find({ _id: { $in: oldForms.map((doc) => doc._id) } })
      .sort({ _id: 1 })
      .toArray();
    const umlaut = (await users.findOne({ _id: `${tag}-1` }))!.email.split('@')[1]!;
    expect(umlaut).toMatch(/^xn--/);
    expect(after.map((doc) => doc.email)).toEqual([
      `ada@${umlaut}`,
      `bo@${umlaut}`,
      `cy@plain-${tag}.example`,
    ]);
    const domain = await joinDomains().findOne({ tenantId: owner.tenantId });
    expect(domain?._id).toMatch(/^xn--/);
    expect(await joinDomains().countDocuments({ _id: `k\u00F6ln-${tag}.example` })).toBe(0);
    expect((await requests().findOne({ _id: `${tag}-r` }))?.email).toBe(`x@${domain?._id ?? ''}`);
    // A second run changes nothing; a conflicting old record is left and reported.
    await users.insertOne({
      ...base,
      _id: `${tag}-5`,
      email: `ada@b\u00FCcher-${tag}.example`,
      passwordHash: 'x',
      createdAt: new Date(),
    });
    const second = await migrateAddressForms(bed.db);
    expect(second.rewritten).toBe(0);
    expect(second.leftAsTheyWere).toEqual([
      { collection: 'users', id: `${tag}-5`, why: expect.stringContaining('another user') },
    ]);
    expect((await users.findOne({ _id: `${tag}-5` }))?.email).toBe(`ada@b\u00FCcher-${tag}.example`);
  });
});
