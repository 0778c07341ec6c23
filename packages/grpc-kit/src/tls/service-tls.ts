import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { experimental } from '@grpc/grpc-js';
import { formatSpiffeId, spiffeIdOfSubjectAltName, type SpiffeId } from './spiffe-id.js';
import { StaticCertificateProvider } from './static-certificate-provider.js';

/**
 * How often rotated certificate files are read again. cert-manager's csi-driver-spiffe renews at
 * 2/3 of a 1 h lifetime, so a minute leaves ~19 minutes of margin.
 */
export const DEFAULT_TLS_REFRESH_INTERVAL_MS = 60_000;

/**
 * The mutual-TLS material of one process: its own certificate and key, the CA bundle it trusts
 * for peers, and its own SPIFFE ID. Peers are trusted only inside the same trust domain and
 * namespace as this process's own identity, so a workload in another namespace with a service
 * account of the same name is a stranger.
 */
export interface ServiceTls {
  readonly self: SpiffeId;
  /** Feeds grpc-js with the current files (rotations included). */
  readonly provider: experimental.CertificateProvider;
  /** The SPIFFE ID `service` has in this process's trust domain and namespace. */
  peerId(service: string): string;
  /** The peer's service name when its certificate is a SPIFFE ID of this trust domain and namespace. */
  peerService(subjectAltName: string | undefined): string | undefined;
}

export class ServiceTlsError extends Error {
  override readonly name = 'ServiceTlsError';
}

function identityOf(certificatePem: Buffer | string, source: string): SpiffeId {
  const id = spiffeIdOfSubjectAltName(new X509Certificate(certificatePem).subjectAltName);
  if (!id)
    throw new ServiceTlsError(
      `${source}: the certificate has no SPIFFE ID (spiffe://<td>/ns/<ns>/sa/<name>)`,
    );
  return id;
}

function serviceTls(self: SpiffeId, provider: experimental.CertificateProvider): ServiceTls {
  return {
    self,
    provider,
    peerId: (service) => formatSpiffeId({ ...self, service }),
    peerService: (subjectAltName) => {
      const peer = spiffeIdOfSubjectAltName(subjectAltName);
      if (!peer || peer.trustDomain !== self.trustDomain || peer.namespace !== self.namespace)
        return undefined;
      return peer.service;
    },
  };
}

/** TLS from PEM in memory (the tests' PKI). */
export function tlsFromPem(pem: {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}): ServiceTls {
  const provider = new StaticCertificateProvider(
    Buffer.from(pem.ca),
    Buffer.from(pem.cert),
    Buffer.from(pem.key),
  );
  return serviceTls(identityOf(pem.cert, 'certificate'), provider);
}

export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
  readonly caFile: string;
  /** Default DEFAULT_TLS_REFRESH_INTERVAL_MS. */
  readonly refreshIntervalMs?: number;
}

/**
 * TLS from files (Kubernetes: the csi-driver-spiffe volume; locally: .infra/pki/<service>),
 * read again every `refreshIntervalMs`, so a renewed certificate is used by new connections
 * without a restart. Writers must replace the files atomically (write + rename): a key that does
 * not match its certificate makes grpc-js refuse new connections until the next good read. The
 * identity is read once, here: a renewal keeps it.
 */
export function tlsFromFiles(files: TlsFiles): ServiceTls {
  let certificate: Buffer;
  try {
    certificate = readFileSync(files.certFile);
    readFileSync(files.keyFile);
    readFileSync(files.caFile);
  } catch (error) {
    throw new ServiceTlsError(`TLS files cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const provider = new experimental.FileWatcherCertificateProvider({
    certificateFile: files.certFile,
    privateKeyFile: files.keyFile,
    caCertificateFile: files.caFile,
    refreshIntervalMs: files.refreshIntervalMs ?? DEFAULT_TLS_REFRESH_INTERVAL_MS,
  });
  return serviceTls(identityOf(certificate, files.certFile), provider);
}
