import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const IMPORT = /^\s*(?:import|export)\b[^'"]*from\s+'([^']+)'/gm;

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => match[1]!);
}

// The direction is http → quota: the HTTP edge asks the quotas, the quotas know nothing of HTTP
// (no routes, no JSON shapes, no plugins), so the two can never import each other both ways.
describe('the quota folder', () => {
  const files = readdirSync(here).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'));

  it('has source files to check (a boundary test that finds nothing proves nothing)', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s imports nothing from http/', (name) => {
    const wrongWay = importsOf(join(here, name)).filter((path) => /(^|\/)http\//.test(path));
    expect(wrongWay).toEqual([]);
  });
});
