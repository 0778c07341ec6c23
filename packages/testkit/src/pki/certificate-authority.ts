import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 24 * 60 * 60 * 1_000;
/** The local CA lives a year; `npm run up` makes a new one (and new leaves) when it has less than 10 days left. */
export const DEV_CA_LIFETIME_MS = 365 * DAY_MS;
/** Leaves live 30 days locally (1 h in Kubernetes, csi-driver-spiffe's default). */
export const DEV_LEAF_LIFETIME_MS = 30 * DAY_MS;

/** The SPIFFE trust domain and namespace of the local stack and the tests. */
export const LOCAL_TRUST_DOMAIN = 'tap.local';
export const LOCAL_NAMESPACE = 'local';

/** One service's mTLS material as PEM: the layout of csi-driver-spiffe (tls.crt, tls.key, ca.crt). */
export interface IssuedIdentity {
  readonly cert: string;
  readonly key: string;
  readonly ca: string;
  readonly spiffeId: string;
}

export interface CertificateAuthority {
  readonly certPem: string;
  readonly keyPem: string;
  /** A leaf for `service` with the SPIFFE ID `spiffe://<td>/ns/<ns>/sa/<service>` (X509-SVID shape). */
  issue(service: string, options?: { lifetimeMs?: number; notBefore?: Date }): Promise<IssuedIdentity>;
}

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der)
    .toString('base64')
    .replace(/(.{64})/g, '$1\n');
  return `-----BEGIN ${label}-----\n${body.trimEnd()}\n-----END ${label}-----\n`;
}

function serial(): string {
  // Positive 16-byte serial: the high bit cleared.
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] ?? 0) & 0x7f;
  return bytes.toString('hex');
}

async function fromKeys(
  caPrivateKey: webcrypto.CryptoKey,
  caCert: x509.X509Certificate,
  scope: { trustDomain: string; namespace: string },
): Promise<CertificateAuthority> {
  const certPem = caCert.toString('pem') + '\n';
  const keyPem = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', caPrivateKey));
  return {
    certPem,
    keyPem,
    async issue(service, options = {}) {
      const spiffeId = `spiffe://${scope.trustDomain}/ns/${scope.namespace}/sa/${service}`;
      const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
      const notBefore = options.notBefore ?? new Date(Date.now() - 60_000);
      const leaf = await x509.X509CertificateGenerator.create({
        serialNumber: serial(),
        subject: `CN=${service}`,
        issuer: caCert.subject,
        notBefore,
        notAfter: new Date(notBefore.getTime() + (options.lifetimeMs ?? DEV_LEAF_LIFETIME_MS)),
        signingAlgorithm: ALGORITHM,
        publicKey: keys.publicKey,
        signingKey: caPrivateKey,
        extensions: [
          new x509.BasicConstraintsExtension(false, undefined, true),
          new x509.KeyUsagesExtension(
            x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment,
            true,
          ),
          new x509.ExtendedKeyUsageExtension([
            x509.ExtendedKeyUsage.serverAuth,
            x509.ExtendedKeyUsage.clientAuth,
          ]),
          new x509.SubjectAlternativeNameExtension([{ type: 'url', value: spiffeId }]),
          await x509.AuthorityKeyIdentifierExtension.create(caCert),
        ],
      });
      const key = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
      return { cert: leaf.toString('pem') + '\n', key, ca: certPem, spiffeId };
    },
  };
}

/** A new P-256 CA for SPIFFE IDs in `trustDomain`/`namespace`. */
export async function createCertificateAuthority(
  options: { trustDomain?: string; namespace?: string; name?: string; lifetimeMs?: number } = {},
): Promise<CertificateAuthority> {
  const keys = await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify']);
  const notBefore = new Date(Date.now() - 60_000);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${options.name ?? 'TAP local CA'}`,
    notBefore,
    notAfter: new Date(notBefore.getTime() + (options.lifetimeMs ?? DEV_CA_LIFETIME_MS)),
    keys,
    signingAlgorithm: ALGORITHM,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return fromKeys(keys.privateKey, cert, {
    trustDomain: options.trustDomain ?? LOCAL_TRUST_DOMAIN,
    namespace: options.namespace ?? LOCAL_NAMESPACE,
  });
}

/** The CA of an earlier run, from its PEM (the local stack reuses .infra/pki/ca). */
export async function loadCertificateAuthority(
  certPem: string,
  keyPem: string,
  scope: { trustDomain?: string; namespace?: string } = {},
): Promise<CertificateAuthority> {
  const cert = new x509.X509Certificate(certPem);
  const der = Buffer.from(keyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, ALGORITHM, true, ['sign']);
  return fromKeys(privateKey, cert, {
    trustDomain: scope.trustDomain ?? LOCAL_TRUST_DOMAIN,
    namespace: scope.namespace ?? LOCAL_NAMESPACE,
  });
}
