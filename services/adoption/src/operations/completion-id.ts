import { createHash } from 'node:crypto';

/**
 * The event id of an event-detected completion: a name-based UUID (RFC 9562 version 5 layout)
 * of the tenant and the milestone, so every writer, retry and replica names it alike and the
 * stream's duplicate window and consumers' id checks see one event per milestone.
 */
export function detectedCompletionId(tenantId: string, key: string): string {
  const hash = createHash('sha1').update(`milestone.completed/${tenantId}/${key}`).digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
