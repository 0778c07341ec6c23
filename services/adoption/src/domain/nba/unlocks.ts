import type { CapabilityKey } from '../catalogue/capabilities.js';
import type { Milestone } from '../state/adoption-state.js';

/** The dependency graph of a milestone list, read both ways. */
export interface MilestoneGraph {
  readonly byKey: ReadonlyMap<string, Milestone>;
  /** key → milestones that list it in `dependsOn`, in display order. */
  readonly dependants: ReadonlyMap<string, readonly Milestone[]>;
}

/** Builds the graph once per call. */
export function milestoneGraph(milestones: readonly Milestone[]): MilestoneGraph {
  const dependants = new Map<string, Milestone[]>();
  for (const milestone of milestones) {
    for (const key of milestone.dependsOn) dependants.set(key, [...(dependants.get(key) ?? []), milestone]);
  }
  return { byKey: new Map(milestones.map((m) => [m.key, m])), dependants };
}

/** The tier lets the tenant do it (no capability needed, or granted). */
export function isEntitled(milestone: Milestone, capabilities: ReadonlySet<CapabilityKey>): boolean {
  return milestone.requiredCapability === null || capabilities.has(milestone.requiredCapability);
}

/** Still to do and doable under the tier: what unlock counts are made of. */
export function isOpen(milestone: Milestone, capabilities: ReadonlySet<CapabilityKey>): boolean {
  return (
    milestone.status !== 'DONE' &&
    milestone.status !== 'NOT_APPLICABLE' &&
    isEntitled(milestone, capabilities)
  );
}

/** Locked milestones whose only unmet dependency is `key`: finishing it frees them at once. */
export function unlockedNow(
  key: string,
  graph: MilestoneGraph,
  capabilities: ReadonlySet<CapabilityKey>,
): readonly Milestone[] {
  return (graph.dependants.get(key) ?? []).filter(
    (d) =>
      d.status === 'LOCKED' &&
      isOpen(d, capabilities) &&
      d.lockedReasons.every((r) => r.unmetDependencyKey === key),
  );
}

/** Every open milestone downstream of `key`, however far. */
export function downstream(
  key: string,
  graph: MilestoneGraph,
  capabilities: ReadonlySet<CapabilityKey>,
): ReadonlySet<string> {
  const seen = new Set<string>();
  const queue = [key];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    for (const d of graph.dependants.get(current) ?? []) {
      if (seen.has(d.key) || !isOpen(d, capabilities)) continue;
      seen.add(d.key);
      queue.push(d.key);
    }
  }
  return seen;
}

/** Open prerequisites of `keys` (transitively), the keys themselves included. */
export function withPrerequisites(
  keys: readonly string[],
  graph: MilestoneGraph,
  capabilities: ReadonlySet<CapabilityKey>,
): ReadonlySet<string> {
  const seen = new Set<string>();
  const queue = [...keys];
  for (let current = queue.shift(); current !== undefined; current = queue.shift()) {
    const milestone = graph.byKey.get(current);
    if (milestone === undefined || seen.has(current) || !isOpen(milestone, capabilities)) continue;
    seen.add(current);
    queue.push(...milestone.dependsOn);
  }
  return seen;
}
