import { MATURITY_RUNGS, type HealthBand, type MaturityRung, type MilestoneStatus } from '@tap/contracts';
import type { CapabilityKey } from '../catalogue/capabilities.js';
import type {
  Chapter,
  CompletionMode,
  InternalStage,
  PathProfile,
} from '../catalogue/milestone-definition.js';

// The words of the answers are the contract's (@tap/contracts, adoption-vocabulary.ts).
export { HEALTH_BANDS, MATURITY_RUNGS, MILESTONE_STATUSES } from '@tap/contracts';
export type { HealthBand, MaturityRung, MilestoneStatus } from '@tap/contracts';

/** A tier as the entitlements service names it. */
export interface TierRef {
  readonly code: string;
  readonly name: string;
}

/**
 * The upgrade recommendation for one capability, as the entitlements service answers it.
 * Adoption passes it through untouched; it never builds one.
 */
export interface UpgradeContext {
  readonly capability: string;
  readonly frictionType: 'CAPABILITY' | 'LIMIT' | 'RATE_LIMIT';
  readonly upgradeAvailable: boolean;
  readonly currentTier: TierRef;
  /** Omitted when `upgradeAvailable` is false. */
  readonly targetTier?: TierRef;
  readonly headline: string;
  readonly featureHighlights: readonly string[];
  readonly cta: string;
}

/** Upgrade contexts the caller fetched, keyed by capability. */
export type UpgradeContexts = Readonly<Partial<Record<CapabilityKey, UpgradeContext>>>;

/** Why a milestone is locked: one entry per dependency that is not done. */
export interface LockedReason {
  readonly unmetDependencyKey: string;
}

/** A milestone as the tenant sees it (the spec's Milestone). */
export interface Milestone {
  readonly key: string;
  readonly chapter: Chapter;
  readonly internalStage: InternalStage;
  readonly status: MilestoneStatus;
  readonly completionMode: CompletionMode;
  readonly triggerEvent: string;
  readonly dependsOn: readonly string[];
  readonly displayOrder: number;
  readonly requiredCapability: CapabilityKey | null;
  readonly paidTeaser: boolean;
  /** Empty unless the status is LOCKED. */
  readonly lockedReasons: readonly LockedReason[];
  readonly completedAt: string | null;
  readonly upgradeContext: UpgradeContext | null;
}

/** The tenant's adoption aggregate (the spec's Adoption state). */
export interface AdoptionState {
  readonly companyId: string;
  readonly currentMaturityRung: MaturityRung;
  readonly pathProfile: PathProfile;
  /** Integer 0 to 100; null while the tenant has no facts at all. */
  readonly healthScore: number | null;
  readonly healthBand: HealthBand;
  /** Partners that exchanged data with the tenant in about the last 30 days. */
  readonly networkDensity: number;
  readonly lastRecomputedAt: string;
  /** Optimistic-concurrency version; recompute echoes the one it is given, the store increments it. */
  readonly version: number;
  /** Every catalogue milestone, in display order. */
  readonly milestones: readonly Milestone[];
}

/** Position of a rung on the ladder (ONBOARDED = 0). */
export function rungIndex(rung: MaturityRung): number {
  return MATURITY_RUNGS.indexOf(rung);
}
