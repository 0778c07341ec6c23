/**
 * Service identities are SPIFFE IDs (X509-SVID: exactly one URI SAN), the shape cert-manager's
 * csi-driver-spiffe issues in Kubernetes: `spiffe://<trust domain>/ns/<namespace>/sa/<service>`.
 * The local stack and the tests issue the same shape from their own CA.
 */
export interface SpiffeId {
  readonly trustDomain: string;
  readonly namespace: string;
  /** The service account, which is the service's name (gateway, identity, adoption, entitlements, operator). */
  readonly service: string;
}

const SPIFFE_ID = /^spiffe:\/\/([a-z0-9._-]+)\/ns\/([a-z0-9-]+)\/sa\/([a-z0-9-]+)$/;

/** The URI form of an identity. */
export function formatSpiffeId(id: SpiffeId): string {
  return `spiffe://${id.trustDomain}/ns/${id.namespace}/sa/${id.service}`;
}

/** Parses one SPIFFE ID of our shape; undefined for anything else. */
export function parseSpiffeId(uri: string): SpiffeId | undefined {
  const match = SPIFFE_ID.exec(uri);
  if (!match) return undefined;
  const [, trustDomain = '', namespace = '', service = ''] = match;
  return { trustDomain, namespace, service };
}

/**
 * The SPIFFE ID of a certificate from Node's `subjectaltname` string (`URI:spiffe://…, DNS:…`).
 * Exactly one URI SAN is allowed (X509-SVID); a certificate with none, several, or one that is
 * not of our shape has no identity. SPIFFE IDs of our shape hold no comma or quote, so Node's
 * escaping of unusual names (CVE-2021-44532) can only make a name fail to parse, never match.
 */
export function spiffeIdOfSubjectAltName(subjectAltName: string | undefined): SpiffeId | undefined {
  const uris = (subjectAltName ?? '')
    .split(', ')
    .filter((entry) => entry.startsWith('URI:'))
    .map((entry) => entry.slice('URI:'.length));
  if (uris.length !== 1) return undefined;
  return parseSpiffeId(uris[0] ?? '');
}
