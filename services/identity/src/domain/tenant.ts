import { identityErrors } from './errors.js';

export interface Tenant {
  readonly id: string;
  readonly name: string;
  readonly slug: string;
  readonly createdAt: Date;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;
const MAX_NAME_LENGTH = 120;

/** Validates and normalises a new tenant's name and slug; the slug defaults from the name. */
export function newTenant(input: { name: string; slug: string }, id: string, now: Date): Tenant {
  const name = input.name.trim();
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) throw identityErrors.create('TENANT_NAME_INVALID');
  const slug = (input.slug.trim() || slugify(name)).toLowerCase();
  if (!SLUG.test(slug)) throw identityErrors.create('TENANT_SLUG_INVALID');
  return { id, name, slug, createdAt: now };
}

export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63);
}
