import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEV_LEAF_LIFETIME_MS } from './certificate-authority.js';
import { DEV_IDENTITIES, ensureDevPki } from './dev-pki.js';

const serial = async (dir: string, name: string) =>
  new X509Certificate(await readFile(join(dir, name, 'tls.crt'))).serialNumber;

describe("the local stack's PKI", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dev-pki-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('makes a CA and a SPIFFE certificate per identity on the first run, keys readable by the owner only', async () => {
    await ensureDevPki(dir);
    const ca = new X509Certificate(await readFile(join(dir, 'ca', 'ca.crt')));
    for (const name of DEV_IDENTITIES) {
      const leaf = new X509Certificate(await readFile(join(dir, name, 'tls.crt')));
      expect(leaf.subjectAltName).toBe(`URI:spiffe://tap.local/ns/local/sa/${name}`);
      expect(leaf.checkIssued(ca) && leaf.verify(ca.publicKey)).toBe(true);
      expect((await stat(join(dir, name, 'tls.key'))).mode & 0o077).toBe(0);
    }
  });

  it('reuses everything on the next run', async () => {
    const before = await serial(dir, 'gateway');
    await ensureDevPki(dir);
    expect(await serial(dir, 'gateway')).toBe(before);
  });

  it('issues a leaf again when it nears expiry, from the same CA', async () => {
    const before = await serial(dir, 'identity');
    const caBefore = await readFile(join(dir, 'ca', 'ca.crt'), 'utf8');
    await ensureDevPki(dir, Date.now() + DEV_LEAF_LIFETIME_MS - 60_000);
    expect(await serial(dir, 'identity')).not.toBe(before);
    expect(await readFile(join(dir, 'ca', 'ca.crt'), 'utf8')).toBe(caBefore);
  });
});
