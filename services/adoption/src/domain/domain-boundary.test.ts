import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const IMPORT = /^\s*(?:import|export)\s[^;]*?from\s+'([^']+)'/gm;
const FORBIDDEN =
  /^(@grpc\/|fastify|mongodb|ioredis|nats|@nats-io\/|@opentelemetry\/|node:fs|node:net|node:http|node:child_process)/;
const GLOBALS =
  /\b(process\.env|Date\.now\(|new Date\(\)|Math\.random\(|crypto\.randomUUID\(|setTimeout\(|fetch\()/;

describe('the adoption domain', () => {
  const files = sourceFiles(root);

  // Without this, a moved folder or a broken walk would find nothing and pass every check below.
  it('finds the domain’s source files, the recompute entry point among them', () => {
    expect(files.length).toBeGreaterThan(20);
    expect(files.map((file) => relative(root, file))).toContain(join('state', 'recompute.ts'));
  });

  it('imports no transport, storage, messaging or telemetry library, and nothing outside itself but @tap/errors, @tap/contracts and uuid', () => {
    for (const file of files) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        expect({
          file: relative(root, file),
          specifier,
          forbidden: FORBIDDEN.test(specifier ?? ''),
        }).toMatchObject({ forbidden: false });
        if (!specifier?.startsWith('.') && !specifier?.startsWith('node:'))
          // uuid: the name-based (v5) risk-signal ids, a pure computation.
          expect(['@tap/errors', '@tap/contracts', 'uuid']).toContain(specifier);
      }
    }
  });

  it('reads no clock, randomness or environment of its own', () => {
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      expect({ file: relative(root, file), usesGlobals: GLOBALS.test(source) }).toMatchObject({
        usesGlobals: false,
      });
    }
  });
});
