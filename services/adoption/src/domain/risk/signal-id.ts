import { createHash } from 'node:crypto';

/** Namespace of adoption risk-signal ids (fixed forever: changing it changes every id). */
export const RISK_SIGNAL_NAMESPACE = '09f2330f-d7ab-43e5-b866-ddd603065ce9';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** RFC 9562 version-5 (SHA-1, name-based) UUID of `name` in `namespace`. */
export function nameBasedUuid(namespace: string, name: string): string {
  if (!UUID_PATTERN.test(namespace)) throw new TypeError(`namespace ${namespace} is not a UUID`);
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Canonical text of a subject ref: keys sorted, so `{a,b}` and `{b,a}` name the same subject. */
export function subjectKey(subjectRef: Readonly<Record<string, string>>): string {
  return Object.keys(subjectRef)
    .sort()
    .map((key) => `${key}=${subjectRef[key] ?? ''}`)
    .join('&');
}

/**
 * The id of the signal for (tenant, kind, subject). Detection run twice, or replayed from the
 * facts, names the same risk with the same id, so the store can upsert by id.
 */
export function riskSignalId(
  tenantId: string,
  kind: string,
  subjectRef: Readonly<Record<string, string>>,
): string {
  return nameBasedUuid(RISK_SIGNAL_NAMESPACE, `${tenantId}\n${kind}\n${subjectKey(subjectRef)}`);
}
