import { describe, expect, it } from '@jest/globals';
import { identityErrors } from './errors.js';
import { newTenant, slugify } from './tenant.js';
import { parseRole, parseScopes } from './roles.js';

const now = new Date('2026-11-21T00:00:00Z');

describe('newTenant', () => {
  it('derives the slug from the name when none is given', () => {
    expect(newTenant({ name: '  Acme Fröhlich GmbH ', slug: '' }, 'id', now)).toEqual({
      id: 'id',
      name: 'Acme Fröhlich GmbH',
      slug: 'acme-frohlich-gmbh',
      createdAt: now,
    });
  });

  it.each([
    ['an empty name', { name: ' ', slug: 'ok-slug' }, 'TENANT_NAME_INVALID'],
    ['a name over 120 characters', { name: 'x'.repeat(121), slug: 'ok-slug' }, 'TENANT_NAME_INVALID'],
    ['a slug with spaces', { name: 'Acme', slug: 'a b c' }, 'TENANT_SLUG_INVALID'],
    ['a slug that is too short', { name: 'Acme', slug: 'ab' }, 'TENANT_SLUG_INVALID'],
  ])('refuses %s', (_label, input, code) => {
    expect(() => newTenant(input, 'id', now)).toThrow(expect.objectContaining({ code }));
  });
});

describe('roles and scopes', () => {
  it('accepts the known values and refuses others', () => {
    expect(parseRole('ADMIN')).toBe('ADMIN');
    expect(() => parseRole('ROOT')).toThrow(expect.objectContaining({ code: 'ROLE_INVALID' }));
    expect(parseScopes(['dpp:read', 'dpp:read'])).toEqual(['dpp:read']);
    expect(() => parseScopes(['admin:all'])).toThrow(expect.objectContaining({ code: 'SCOPE_INVALID' }));
  });

  it('keeps a consistent error catalogue', () => {
    for (const [code, entry] of Object.entries(identityErrors.catalogue)) {
      expect(code).toMatch(/^[A-Z_]+$/);
      expect(entry.message.length).toBeGreaterThan(0);
    }
    expect(slugify('Über Co.')).toBe('uber-co');
  });
});
