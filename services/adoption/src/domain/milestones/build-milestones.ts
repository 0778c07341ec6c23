import type { CapabilityKey } from '../catalogue/capabilities.js';
import { toIso } from '../time.js';
import type { LockedReason, Milestone, MilestoneStatus, UpgradeContexts } from '../state/adoption-state.js';
import type { MilestoneProgress } from './milestone-progress.js';

/**
 * A dependency is satisfied when it is DONE or does not apply to the profile: a supplier never
 * sends data requests, so "close a data request" must not wait for "send one".
 */
export function unmetDependencies(
  progress: MilestoneProgress,
  all: ReadonlyMap<string, MilestoneProgress>,
): readonly LockedReason[] {
  return progress.definition.dependsOn
    .filter((key) => {
      const dependency = all.get(key);
      return dependency === undefined || (dependency.applicable && !dependency.done);
    })
    .map((key) => ({ unmetDependencyKey: key }));
}

// The profile decides what is asked of the tenant: its log may hold a counterpart's action (a
// request sent *to* a supplier), so a milestone of the other path is never shown as DONE.
function statusOf(progress: MilestoneProgress, unmet: readonly LockedReason[]): MilestoneStatus {
  if (!progress.applicable) return 'NOT_APPLICABLE';
  if (progress.done) return 'DONE';
  if (unmet.length > 0) return 'LOCKED';
  return progress.started ? 'IN_PROGRESS' : 'AVAILABLE';
}

/** Everything buildMilestones needs besides progress. */
export interface MilestoneViewOptions {
  readonly capabilities: ReadonlySet<CapabilityKey>;
  readonly upgradeContexts: UpgradeContexts;
}

/**
 * The tenant-facing milestone list in display order. A paid teaser the tier lacks carries the
 * caller-supplied upgrade context until it is done; its status still follows its dependencies,
 * so the tenant sees what it could do next if it upgraded.
 */
export function buildMilestones(
  all: ReadonlyMap<string, MilestoneProgress>,
  options: MilestoneViewOptions,
): readonly Milestone[] {
  return [...all.values()].map((progress) => {
    const { definition } = progress;
    const unmet = unmetDependencies(progress, all);
    const status = statusOf(progress, unmet);
    const capability = definition.requiredCapability;
    const gated = capability !== null && !options.capabilities.has(capability);
    const showUpgrade = gated && status !== 'DONE' && status !== 'NOT_APPLICABLE';
    return {
      key: definition.key,
      chapter: definition.chapter,
      internalStage: definition.internalStage,
      status,
      completionMode: definition.completionMode,
      triggerEvent: definition.triggerEvent,
      dependsOn: definition.dependsOn,
      displayOrder: definition.displayOrder,
      requiredCapability: capability,
      paidTeaser: definition.paidTeaser,
      lockedReasons: status === 'LOCKED' ? unmet : [],
      completedAt: status === 'DONE' && progress.completedAt !== null ? toIso(progress.completedAt) : null,
      upgradeContext: showUpgrade ? (options.upgradeContexts[capability] ?? null) : null,
    };
  });
}
