import { MILESTONE_DEFINITIONS } from './catalogue-data.js';
import type { MilestoneDefinition, PathProfile } from './milestone-definition.js';

/**
 * Version of the milestone catalogue. Bump it whenever a milestone is added, removed, reordered or
 * changes its trigger, dependencies or capability; the explanation carries it so a changed
 * state can be told apart from a changed model.
 */
export const CATALOGUE_VERSION = 1;

const BY_KEY: ReadonlyMap<string, MilestoneDefinition> = new Map(
  MILESTONE_DEFINITIONS.map((d) => [d.key, d]),
);

/** The definition with this key, or undefined. */
export function findDefinition(key: string): MilestoneDefinition | undefined {
  return BY_KEY.get(key);
}

/** True when the milestone applies to the profile (otherwise its status is NOT_APPLICABLE). */
export function appliesTo(definition: MilestoneDefinition, profile: PathProfile): boolean {
  return definition.profiles.includes(profile);
}

/** True when `key` names a milestone that applies to the profile: what a success plan may name. */
export function isKnownForProfile(key: string, profile: PathProfile): boolean {
  const definition = BY_KEY.get(key);
  return definition !== undefined && appliesTo(definition, profile);
}
