import type { ManualCompletion } from '../facts/facts.js';
import { nameBasedUuid } from '../risk/signal-id.js';
import type { AdoptionState } from '../state/adoption-state.js';

/** A milestone the state shows DONE that no stored completion records yet. */
export interface NewCompletion {
  readonly key: string;
  readonly completedAt: string;
}

/**
 * The milestones a write makes DONE for the first time: DONE in `state` (event-detected ones by
 * their trigger facts) and in none of the stored completions. Each is stored with its instant and
 * gets its one `milestone.completed`; a manual one was stored by the call that completed it.
 */
export function newCompletions(
  state: AdoptionState,
  stored: readonly Pick<ManualCompletion, 'key'>[],
): readonly NewCompletion[] {
  const known = new Set(stored.map((c) => c.key));
  return state.milestones.flatMap((m) =>
    m.status === 'DONE' && m.completedAt !== null && !known.has(m.key)
      ? [{ key: m.key, completedAt: m.completedAt }]
      : [],
  );
}

/** Namespace of the ids of detected completions (fixed forever: changing it changes every id). */
export const DETECTED_COMPLETION_NAMESPACE = '6c1f0a57-3a3e-4d8e-9f61-2b7c4e0d9a13';

/**
 * The event id of an event-detected completion: a name-based UUID of (tenant, milestone), so
 * every writer, retry, replica and replay names it alike, and the stream's duplicate window and
 * consumers' id checks see one `milestone.completed` per milestone.
 */
export function detectedCompletionId(tenantId: string, key: string): string {
  return nameBasedUuid(DETECTED_COMPLETION_NAMESPACE, `${tenantId}\nmilestone.completed\n${key}`);
}

/** The stored record of a detected completion: no actor, no evidence, the id its event carries. */
export function detectedCompletion(completion: NewCompletion, id: string): ManualCompletion {
  return { id, key: completion.key, completedAt: completion.completedAt, evidenceRef: null, actorId: null };
}
