import { v5 as uuidV5, validate } from 'uuid';

/** Namespace of adoption risk-signal ids (fixed forever: changing it changes every id). */
export const RISK_SIGNAL_NAMESPACE = '09f2330f-d7ab-43e5-b866-ddd603065ce9';

/** RFC 9562 version-5 (SHA-1, name-based) UUID of `name` in `namespace` (the `uuid` package's). */
export function nameBasedUuid(namespace: string, name: string): string {
  if (!validate(namespace)) throw new TypeError(`namespace ${namespace} is not a UUID`);
  return uuidV5(name, namespace);
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
