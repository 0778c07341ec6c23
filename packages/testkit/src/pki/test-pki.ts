import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  createCertificateAuthority,
  type CertificateAuthority,
  type IssuedIdentity,
} from './certificate-authority.js';

/** The service identities of the platform; `operator` is the CLI. */
export type ServiceName = 'gateway' | 'identity' | 'adoption' | 'entitlements' | 'notifications' | 'operator';

let shared: Promise<{ ca: CertificateAuthority; issued: Map<string, Promise<IssuedIdentity>> }> | undefined;

/**
 * The tests' in-memory PKI: one CA per test process (made on first use, ~50 ms) and one leaf per
 * identity, reused by every test bed of that process. Real TLS on loopback, nothing on disk.
 */
export async function testIdentity(service: ServiceName | (string & {})): Promise<IssuedIdentity> {
  shared ??= createCertificateAuthority().then((ca) => ({ ca, issued: new Map() }));
  const { ca, issued } = await shared;
  let identity = issued.get(service);
  if (!identity) {
    identity = ca.issue(service);
    issued.set(service, identity);
  }
  return identity;
}

/**
 * Writes `service`'s test certificate to `<dir>/<service>/` and returns the GRPC_TLS_* variables a
 * process (a service, the CLI) reads it from.
 */
export async function testIdentityEnv(
  dir: string,
  service: ServiceName | (string & {}),
): Promise<Record<'GRPC_TLS_CERT_FILE' | 'GRPC_TLS_KEY_FILE' | 'GRPC_TLS_CA_FILE', string>> {
  const issued = await testIdentity(service);
  const leafDir = join(dir, service);
  await mkdir(leafDir, { recursive: true, mode: 0o700 });
  await writeFile(join(leafDir, 'tls.crt'), issued.cert);
  await writeFile(join(leafDir, 'tls.key'), issued.key, { mode: 0o600 });
  await writeFile(join(leafDir, 'ca.crt'), issued.ca);
  return {
    GRPC_TLS_CERT_FILE: join(leafDir, 'tls.crt'),
    GRPC_TLS_KEY_FILE: join(leafDir, 'tls.key'),
    GRPC_TLS_CA_FILE: join(leafDir, 'ca.crt'),
  };
}
