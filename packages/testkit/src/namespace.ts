import { randomBytes } from 'node:crypto';

/**
 * A short unique name for one test file's databases, key prefixes and stream names, so suites
 * run in parallel against shared servers without seeing each other. Safe as a MongoDB database
 * name (FerretDB's SQLite backend included), a Redis key prefix and a NATS stream name.
 */
export function testNamespace(label: string): string {
  const clean = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 24);
  return `t_${clean}_${randomBytes(4).toString('hex')}`;
}
