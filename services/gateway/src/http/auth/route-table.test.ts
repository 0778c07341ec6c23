import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { MANAGER_ROLES, ROUTE_TABLE, type RouteAccess } from './route-table.js';

/** docs/security.md §4 names each route's access level in words; the table in code in kinds. */
function levelOf(entry: RouteAccess): string {
  if (entry.access === 'public') return 'public';
  if (entry.auth.roles)
    return entry.auth.roles === MANAGER_ROLES ? 'OWNER/ADMIN' : entry.auth.roles.join('/');
  if (entry.auth.users) return 'user';
  return 'any token';
}

/** `METHOD /path` (Fastify's `:param`) → level, from every row of the document's route tables. */
function documentedLevels(): Map<string, string[]> {
  const text = readFileSync(new URL('../../../../../docs/security.md', import.meta.url), 'utf8');
  const levels = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim());
    const [, routes, level] = cells;
    if (!routes?.startsWith('`') || !level) continue;
    for (const [, route] of routes.matchAll(/`([A-Z]+ \/[^`]*)`/g)) {
      const key = route!.replace(/\{(\w+)\}/g, ':$1');
      levels.set(key, [...(levels.get(key) ?? []), level]);
    }
  }
  return levels;
}

describe('docs/security.md, the endpoint table for people', () => {
  it('lists every route of the route table once, with the access level its declaration states', () => {
    const documented = documentedLevels();
    const inCode = Object.entries(ROUTE_TABLE).map(([key, entry]) => [key, [levelOf(entry)]]);
    const inDocs = [...documented].filter(([key]) => key.includes(' /'));
    expect(Object.fromEntries(inDocs)).toEqual(Object.fromEntries(inCode));
  });
});
