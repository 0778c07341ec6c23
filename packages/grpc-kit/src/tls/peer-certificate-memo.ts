import { TLSSocket, type PeerCertificate } from 'node:tls';

const known = new WeakMap<TLSSocket, PeerCertificate>();
let installed = false;

/**
 * Makes a TLS socket answer `getPeerCertificate()` from memory after the first time.
 *
 * Why: grpc-js asks the socket for its peer certificate on every call (`getAuthContext()`), and
 * Node builds the whole certificate object (subject, SANs, fingerprints) anew each time, a
 * noticeable share of a service's CPU per call at load. A connection's peer certificate is the
 * one its handshake proved: the caller's identity is fixed per connection already (docs/security.md,
 * "mTLS between services"; connections live at most 30 s, so a rotated certificate is taken up by
 * the next one). Only the plain form is remembered (`detailed` asks Node afresh), only once a
 * handshake produced a certificate, and the memory goes with the socket (WeakMap).
 */
export function memoisePeerCertificates(): void {
  if (installed) return;
  installed = true;
  const original = TLSSocket.prototype.getPeerCertificate;
  const memoised = function (this: TLSSocket, detailed?: boolean) {
    if (detailed) return original.call(this, true);
    const remembered = known.get(this);
    if (remembered) return remembered;
    const certificate = original.call(this, false);
    // An empty object before the handshake or without a client certificate: not remembered.
    if (certificate?.raw) known.set(this, certificate);
    return certificate;
  };
  TLSSocket.prototype.getPeerCertificate = memoised as typeof original;
}
