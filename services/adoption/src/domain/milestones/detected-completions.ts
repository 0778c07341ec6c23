import type { ManualCompletion } from '../facts/facts.js';
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

/** The stored record of a detected completion: no actor, no evidence, the id its event carries. */
export function detectedCompletion(completion: NewCompletion, id: string): ManualCompletion {
  return { id, key: completion.key, completedAt: completion.completedAt, evidenceRef: null, actorId: null };
}
