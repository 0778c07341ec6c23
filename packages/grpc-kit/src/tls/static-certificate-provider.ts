import type { experimental } from '@grpc/grpc-js';

type CertificateProvider = experimental.CertificateProvider;
type CaListener = experimental.CaCertificateUpdateListener;
type IdentityListener = experimental.IdentityCertificateUpdateListener;

/**
 * A certificate provider over PEM held in memory (tests). Listeners are told on the next tick, as
 * grpc-js registers its watcher only after adding its listener: a synchronous call would be missed.
 */
export class StaticCertificateProvider implements CertificateProvider {
  constructor(
    private readonly ca: Buffer,
    private readonly certificate: Buffer,
    private readonly privateKey: Buffer,
  ) {}

  addCaCertificateListener(listener: CaListener): void {
    setImmediate(() => listener({ caCertificate: this.ca }));
  }

  removeCaCertificateListener(): void {}

  addIdentityCertificateListener(listener: IdentityListener): void {
    setImmediate(() => listener({ certificate: this.certificate, privateKey: this.privateKey }));
  }

  removeIdentityCertificateListener(): void {}
}
