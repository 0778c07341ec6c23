import { findDefinition } from '../catalogue/catalogue.js';
import type { Milestone, MaturityRung } from '../state/adoption-state.js';

/** Everything the reason sentence may mention. */
export interface ReasonFacts {
  readonly milestone: Milestone;
  readonly unlockedNow: readonly Milestone[];
  readonly downstreamCount: number;
  readonly towardRung: MaturityRung | null;
  readonly objectiveLabel: string | null;
}

/** The catalogue title of a key, or the key itself. */
export function titleOf(key: string): string {
  return findDefinition(key)?.title ?? key;
}

function listTitles(milestones: readonly Milestone[]): string {
  const titles = milestones.slice(0, 3).map((m) => titleOf(m.key));
  const more = milestones.length - titles.length;
  return more > 0 ? `${titles.join(', ')} and ${more} more` : titles.join(', ');
}

const steps = (n: number): string => `${n} step${n === 1 ? '' : 's'}`;

/**
 * The plain-language `becauseOf`: what to do, what it frees, which rung and objective it serves.
 * Built from templates only, so the same state always reads the same.
 */
export function becauseOf(facts: ReasonFacts): string {
  const { milestone, unlockedNow, downstreamCount } = facts;
  const sentences = [`${titleOf(milestone.key)}.`];
  if (milestone.status === 'IN_PROGRESS') sentences.push('You have already started it.');
  if (unlockedNow.length > 0) {
    const total = downstreamCount > unlockedNow.length ? ` and ${steps(downstreamCount)} in total` : '';
    sentences.push(
      `It unlocks ${steps(unlockedNow.length)} right away (${listTitles(unlockedNow)})${total}.`,
    );
  } else if (downstreamCount > 0) {
    sentences.push(`It leads on to ${steps(downstreamCount)}.`);
  }
  if (facts.towardRung !== null) sentences.push(`It moves you toward the ${facts.towardRung} rung.`);
  if (facts.objectiveLabel !== null)
    sentences.push(`It is part of your success-plan objective "${facts.objectiveLabel}".`);
  if (sentences.length === 1) sentences.push(`It is the next open step in chapter ${milestone.chapter}.`);
  return sentences.join(' ');
}
