import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { X509Certificate } from 'node:crypto';
import { join } from 'node:path';
import {
  createCertificateAuthority,
  DEV_LEAF_LIFETIME_MS,
  loadCertificateAuthority,
  type CertificateAuthority,
} from './certificate-authority.js';

/** Every identity the local stack needs: the services and the operator CLI. */
export const DEV_IDENTITIES = [
  'gateway',
  'identity',
  'adoption',
  'entitlements',
  'notifications',
  'operator',
] as const;
/** A leaf (or the CA) is made again when it has less than this left. */
const RENEW_BEFORE_MS = DEV_LEAF_LIFETIME_MS / 3;

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

function validLongEnough(certPem: string | undefined, now: number): boolean {
  if (!certPem) return false;
  try {
    return new Date(new X509Certificate(certPem).validTo).getTime() - now > RENEW_BEFORE_MS;
  } catch {
    return false;
  }
}

/** Temp file + rename: a reader (the services' file watchers) never sees half a file. */
async function writeAtomically(path: string, content: string, mode: number): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, content, { mode });
  await rename(temp, path);
}

/**
 * The local stack's PKI under `dir` (`.infra/pki`, gitignored): a CA (`ca/ca.crt`, `ca/ca.key`) made
 * on first run and reused after, and for every identity `<name>/{tls.crt,tls.key,ca.crt}` (the
 * csi-driver-spiffe layout the services read). Leaves near expiry, or issued by another CA, are
 * issued again; the key is written before the certificate so a watcher never pairs a new
 * certificate with an old key for longer than one refresh. Returns the directories by identity.
 */
export async function ensureDevPki(dir: string, now = Date.now()): Promise<Record<string, string>> {
  await mkdir(join(dir, 'ca'), { recursive: true, mode: 0o700 });
  const caCertPath = join(dir, 'ca', 'ca.crt');
  const caKeyPath = join(dir, 'ca', 'ca.key');
  const existingCert = await readOrUndefined(caCertPath);
  const existingKey = await readOrUndefined(caKeyPath);
  let ca: CertificateAuthority;
  if (existingCert && existingKey && validLongEnough(existingCert, now)) {
    ca = await loadCertificateAuthority(existingCert, existingKey);
  } else {
    ca = await createCertificateAuthority();
    await writeAtomically(caKeyPath, ca.keyPem, 0o600);
    await writeAtomically(caCertPath, ca.certPem, 0o644);
  }
  const caX509 = new X509Certificate(ca.certPem);
  const dirs: Record<string, string> = {};
  for (const name of DEV_IDENTITIES) {
    const leafDir = join(dir, name);
    dirs[name] = leafDir;
    await mkdir(leafDir, { recursive: true, mode: 0o700 });
    const leafPem = await readOrUndefined(join(leafDir, 'tls.crt'));
    const sameCa = leafPem !== undefined && safeCheckIssued(leafPem, caX509);
    const caFile = await readOrUndefined(join(leafDir, 'ca.crt'));
    if (sameCa && validLongEnough(leafPem, now) && caFile === ca.certPem) continue;
    const issued = await ca.issue(name);
    await writeAtomically(join(leafDir, 'ca.crt'), issued.ca, 0o644);
    await writeAtomically(join(leafDir, 'tls.key'), issued.key, 0o600);
    await writeAtomically(join(leafDir, 'tls.crt'), issued.cert, 0o644);
  }
  return dirs;
}

function safeCheckIssued(leafPem: string, ca: X509Certificate): boolean {
  try {
    return new X509Certificate(leafPem).checkIssued(ca) && new X509Certificate(leafPem).verify(ca.publicKey);
  } catch {
    return false;
  }
}
