import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall } from '@tap/grpc-kit';
import { codeOf, openIdentityBed, type IdentityBed } from './support/identity-bed.js';

describe('tenants and users', () => {
  let bed: IdentityBed;
  beforeAll(async () => {
    bed = await openIdentityBed('users');
  });
  afterAll(async () => {
    await bed?.close();
  });

  const newUser = (email: string, password = 'long enough passphrase') => ({
    email,
    firstName: 'Ada',
    lastName: 'Lovelace',
    password,
  });

  it('creates a tenant with its OWNER, and users in it with a role', async () => {
    const created = await unaryCall(
      bed.client,
      'CreateTenantWithOwner',
      { name: 'Users Ltd', slug: '', owner: newUser('Ada@Users.example') },
      bed.operator,
    );
    expect(created.tenant).toMatchObject({ name: 'Users Ltd', slug: 'users-ltd' });
    expect(created.owner).toMatchObject({
      email: 'ada@users.example',
      role: 'OWNER',
      active: true,
      firstName: 'Ada',
      lastName: 'Lovelace',
    });
    const admin = await unaryCall(
      bed.client,
      'CreateUser',
      { tenantId: created.tenant!.id, user: newUser('admin@users.example'), role: 'ADMIN' },
      bed.operator,
    );
    expect(admin).toMatchObject({ role: 'ADMIN', tenantId: created.tenant!.id });
  });

  it('keeps an email address to one account across the platform, and leaves no tenant behind', async () => {
    const first = await unaryCall(
      bed.client,
      'CreateTenantWithOwner',
      { name: 'First Ltd', slug: '', owner: newUser('taken@users.example') },
      bed.operator,
    );
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'CreateUser',
          { tenantId: first.tenant!.id, user: newUser('TAKEN@users.example'), role: 'MEMBER' },
          bed.operator,
        ),
      ),
    ).toBe('EMAIL_TAKEN');
    expect(
      await codeOf(
        unaryCall(
          bed.client,
          'CreateTenantWithOwner',
          { name: 'Second Ltd', slug: '', owner: newUser('taken@users.example') },
          bed.operator,
        ),
      ),
    ).toBe('EMAIL_TAKEN');
    expect(
      await codeOf(unaryCall(bed.client, 'FindTenantBySlug', { slug: 'second-ltd' }, bed.operator)),
    ).toBe('TENANT_NOT_FOUND');
  });

  it('refuses bad input', async () => {
    const tenant = await unaryCall(
      bed.client,
      'CreateTenant',
      { name: 'Strict Ltd', slug: '' },
      bed.operator,
    );
    const create = (user: ReturnType<typeof newUser>, role = 'MEMBER', tenantId = tenant.id) =>
      codeOf(unaryCall(bed.client, 'CreateUser', { tenantId, user, role }, bed.operator));
    expect(await create(newUser('no-at-sign'))).toBe('EMAIL_INVALID');
    expect(await create(newUser('short@strict.example', 'short'))).toBe('PASSWORD_TOO_WEAK');
    expect(await create({ ...newUser('names@strict.example'), firstName: ' ' })).toBe('USER_NAME_INVALID');
    expect(await create(newUser('role@strict.example'), 'ROOT')).toBe('ROLE_INVALID');
    expect(
      await create(newUser('orphan@strict.example'), 'MEMBER', '00000000-0000-4000-8000-000000000000'),
    ).toBe('TENANT_NOT_FOUND');
  });

  it('is operator-only', async () => {
    const call = unaryCall(
      bed.client,
      'CreateUser',
      { tenantId: 'x', user: newUser('x@y.example'), role: 'MEMBER' },
      { authorization: 'Operator wrong-token-wrong-token-wrong-token' },
    );
    expect(await codeOf(call)).toBe('OPERATOR_ONLY');
  });
});
