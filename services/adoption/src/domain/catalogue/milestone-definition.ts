import type { CompletionMode, InternalStage, PathProfile } from '@tap/contracts';
import type { CapabilityKey } from './capabilities.js';
import type { EventKind } from './event-kinds.js';

// The words of the catalogue are the contract's (@tap/contracts, adoption-vocabulary.ts).
export { COMPLETION_MODES, INTERNAL_STAGES, PATH_PROFILES } from '@tap/contracts';
export type { CompletionMode, InternalStage, PathProfile } from '@tap/contracts';

/** Chapters 1 to 7 of the journey. */
export type Chapter = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/** One milestone of the versioned catalogue. */
export interface MilestoneDefinition {
  /** Stable identifier, snake_case, used in paths and in success-plan objectives. */
  readonly key: string;
  /** Short imperative title, used in plain-language reasons and in the docs. */
  readonly title: string;
  readonly chapter: Chapter;
  readonly internalStage: InternalStage;
  readonly completionMode: CompletionMode;
  /** The event that completes it; `milestone.completed` for MANUAL milestones. */
  readonly triggerEvent: EventKind;
  /** An event that shows the tenant has started (status IN_PROGRESS), or null. */
  readonly startEvent: EventKind | null;
  /** How many distinct trigger events complete it (1 for most; 10 for "ten products" and so on). */
  readonly targetCount: number;
  readonly dependsOn: readonly string[];
  readonly displayOrder: number;
  readonly requiredCapability: CapabilityKey | null;
  /** True exactly when `requiredCapability` is set: the milestone advertises a paid capability. */
  readonly paidTeaser: boolean;
  /** The path profiles the milestone applies to; for the others it is NOT_APPLICABLE. */
  readonly profiles: readonly PathProfile[];
}
