import { appliesTo } from '../catalogue/catalogue.js';
import { MILESTONE_DEFINITIONS } from '../catalogue/catalogue-data.js';
import type { MilestoneDefinition, PathProfile } from '../catalogue/milestone-definition.js';
import { factsOfType } from '../facts/fact-log.js';
import type { FactLog, TimedCompletion } from '../facts/fact-log.js';

/** What the facts say about one milestone, before dependencies are considered. */
export interface MilestoneProgress {
  readonly definition: MilestoneDefinition;
  readonly applicable: boolean;
  readonly done: boolean;
  /** Instant of the fact that completed it (the `targetCount`-th trigger, or the manual completion). */
  readonly completedAt: number | null;
  /** Id of that fact or completion, for explanations. */
  readonly completedBy: string | null;
  /** Trigger facts seen, capped at `targetCount`. */
  readonly count: number;
  /** A start or trigger fact was seen: the tenant has begun. */
  readonly started: boolean;
}

function eventProgress(
  definition: MilestoneDefinition,
  log: FactLog,
): Omit<MilestoneProgress, 'definition' | 'applicable'> {
  const triggers = factsOfType(log, definition.triggerEvent);
  const completing = triggers[definition.targetCount - 1];
  const startSeen = definition.startEvent !== null && factsOfType(log, definition.startEvent).length > 0;
  return {
    done: completing !== undefined,
    completedAt: completing?.at ?? null,
    completedBy: completing?.id ?? null,
    count: Math.min(triggers.length, definition.targetCount),
    started: startSeen || triggers.length > 0,
  };
}

/**
 * An event-detected milestone whose completion is stored stays DONE at the stored instant, even
 * once the summary no longer keeps the fact that completed it (the projection stores every DONE).
 */
function storedOrEventProgress(
  definition: MilestoneDefinition,
  log: FactLog,
  stored: TimedCompletion | undefined,
): Omit<MilestoneProgress, 'definition' | 'applicable'> {
  const seen = eventProgress(definition, log);
  if (stored === undefined) return seen;
  return {
    ...seen,
    done: true,
    completedAt: stored.at,
    completedBy: stored.id,
    count: definition.targetCount,
  };
}

function manualProgress(
  completion: TimedCompletion | undefined,
): Omit<MilestoneProgress, 'definition' | 'applicable'> {
  return {
    done: completion !== undefined,
    completedAt: completion?.at ?? null,
    completedBy: completion?.id ?? null,
    count: completion === undefined ? 0 : 1,
    started: completion !== undefined,
  };
}

/**
 * Progress of every catalogue milestone for the profile. DONE is decided by facts alone: an
 * event-detected milestone is done once its trigger happened, even if events arrived before
 * its dependencies' (the event is a fact; delivery order is not). `done` ignores the
 * profile (the rung reads it that way); the status shown applies the profile. Nothing ever un-completes a milestone: archiving a product does not undo
 * "first product created".
 */
export function evaluateProgress(
  profile: PathProfile,
  log: FactLog,
  completions: ReadonlyMap<string, TimedCompletion>,
): ReadonlyMap<string, MilestoneProgress> {
  const progress = new Map<string, MilestoneProgress>();
  for (const definition of MILESTONE_DEFINITIONS) {
    const seen =
      definition.completionMode === 'MANUAL'
        ? manualProgress(completions.get(definition.key))
        : storedOrEventProgress(definition, log, completions.get(definition.key));
    progress.set(definition.key, { definition, applicable: appliesTo(definition, profile), ...seen });
  }
  return progress;
}
