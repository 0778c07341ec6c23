import { describe, expect, it } from '@jest/globals';
import { grantScopes, newOAuthClient } from './oauth-client.js';
import { MALFORMED_ADDRESSES } from './testing/addresses.js';
import { checkPassword, newUser, normaliseEmail } from './user.js';

const now = new Date('2026-11-21T00:00:00Z');

describe('users', () => {
  it('normalises email addresses so one address is one account', () => {
    expect(normaliseEmail('  Ada.Lovelace@Example.COM ')).toBe('ada.lovelace@example.com');
    for (const bad of [...MALFORMED_ADDRESSES, `${'a'.repeat(250)}@example.com`]) {
      expect(() => normaliseEmail(bad)).toThrow(expect.objectContaining({ code: 'EMAIL_INVALID' }));
    }
  });

  it('asks for 12 to 128 characters and nothing else of a password', () => {
    expect(() => checkPassword('correct horse')).not.toThrow();
    expect(() => checkPassword('a'.repeat(11))).toThrow(
      expect.objectContaining({ code: 'PASSWORD_TOO_WEAK' }),
    );
    expect(() => checkPassword('a'.repeat(129))).toThrow(
      expect.objectContaining({ code: 'PASSWORD_TOO_WEAK' }),
    );
    // Counted in characters, not UTF-16 units.
    expect(() => checkPassword('🔑'.repeat(12))).not.toThrow();
  });

  it('creates an active user with trimmed names', () => {
    const user = newUser(
      { email: 'A@B.example', firstName: ' Ada ', lastName: 'Lovelace', password: 'x'.repeat(12) },
      { id: 'u', tenantId: 't' },
      'ADMIN',
      now,
    );
    expect(user).toEqual({
      id: 'u',
      tenantId: 't',
      email: 'a@b.example',
      firstName: 'Ada',
      lastName: 'Lovelace',
      role: 'ADMIN',
      active: true,
      createdAt: now,
    });
  });
});

describe('OAuth clients', () => {
  const client = newOAuthClient(
    { name: ' ERP ', scopes: ['dpp:read', 'products:read', 'dpp:read'] },
    { clientId: 'c', tenantId: 't', secretId: 's' },
    now,
  );

  it("keeps a client's scopes unique and its name trimmed", () => {
    expect(client).toMatchObject({ name: 'ERP', scopes: ['dpp:read', 'products:read'] });
    expect(() =>
      newOAuthClient({ name: 'x', scopes: [] }, { clientId: 'c', tenantId: 't', secretId: 's' }, now),
    ).toThrow(expect.objectContaining({ code: 'OAUTH_CLIENT_SCOPES_REQUIRED' }));
  });

  it('grants a subset of the held scopes, in the held order, or all of them', () => {
    expect(grantScopes('', client.scopes)).toEqual(['dpp:read', 'products:read']);
    expect(grantScopes('products:read  dpp:read', client.scopes)).toEqual(['dpp:read', 'products:read']);
    expect(grantScopes('products:read products:read', client.scopes)).toEqual(['products:read']);
    expect(() => grantScopes('imports:write', client.scopes)).toThrow(
      expect.objectContaining({ code: 'SCOPE_NOT_GRANTED' }),
    );
    expect(() => grantScopes('root', client.scopes)).toThrow(
      expect.objectContaining({ code: 'SCOPE_NOT_GRANTED' }),
    );
  });
});
