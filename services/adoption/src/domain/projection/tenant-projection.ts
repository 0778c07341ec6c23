import type { CoverageCell } from '../coverage/coverage-cells.js';
import { coverageCells } from '../coverage/coverage-cells.js';
import type { EventFact, ManualCompletion } from '../facts/facts.js';
import type { ItemCounts } from '../items/distinct-items.js';
import { activeSignals, MAX_SIGNAL_LIMIT } from '../risk/active-signals.js';
import type { RiskSignal } from '../risk/risk-signal.js';
import type { AdoptionState, HealthBand, UpgradeContexts } from '../state/adoption-state.js';
import type { AdoptionExplanation } from '../state/explanation.js';
import { recompute, type RecomputeResult } from '../state/recompute.js';
import type { TierView } from '../tier/tier.js';

/**
 * The tenant's read model: everything the adoption reads answer with, derived by the write that
 * last recomputed the tenant (an event group, a completion, a tier change, a drift-watch pass)
 * and stored in the same conditional update. Reads map it to the wire and recompute nothing.
 * Bounded whatever the tenant's history: one entry per catalogue milestone (28), per coverage
 * cell (10), per health component (5), and at most MAX_SIGNAL_LIMIT active signals.
 */
export interface TenantProjection {
  /** Milestones with their statuses, `completedAt` and the tier's upgrade offers; rung, health. */
  readonly state: AdoptionState;
  /** Why the health score, band and rung are what they are (GetHealthExplanation). */
  readonly explanation: AdoptionExplanation;
  readonly coverage: readonly CoverageCell[];
  /** The drift-watch ledger's active signals, most recent first (ListRiskSignals). */
  readonly signals: readonly RiskSignal[];
  /** What the tier grants: the next best action ranks only what the tenant may do. */
  readonly capabilities: readonly string[];
  /** Events applied over the tenant's life (GetState's `appliedEventCount`). */
  readonly appliedEvents: number;
}

/** What a projection is derived from besides the recompute itself. */
export interface ProjectionInput {
  readonly result: RecomputeResult;
  /** The ledger as the write stores it (merged with what the recompute detected). */
  readonly ledger: readonly RiskSignal[];
  /** The facts the recompute read (coverage reads connections from them). */
  readonly facts: readonly EventFact[];
  /** The distinct-item counters (coverage's other cells). */
  readonly items: ItemCounts;
  readonly capabilities: readonly string[];
  readonly appliedEvents: number;
}

/** The projection a write stores next to its recompute. */
export function projectionOf(input: ProjectionInput): TenantProjection {
  return {
    state: input.result.state,
    explanation: input.result.explanation,
    coverage: coverageCells({ facts: input.facts, items: input.items, capabilities: input.capabilities }),
    signals: activeSignals(input.ledger, MAX_SIGNAL_LIMIT),
    capabilities: [...input.capabilities],
    appliedEvents: input.appliedEvents,
  };
}

/** What the projection of a tenant that has no stored projection yet is computed from. */
export interface EmptyProjectionInput {
  readonly tenantId: string;
  readonly tier: TierView;
  readonly upgradeContexts: UpgradeContexts;
  /** Completions stored without a recompute yet (none for a tenant never written). */
  readonly completions?: readonly ManualCompletion[];
  readonly lastBand?: HealthBand | null;
  readonly version?: number;
  readonly now: Date;
}

/**
 * The projection of a tenant nothing has been projected for: no facts, so a pure computation
 * over the catalogue and the tier (28 milestones), with nothing read but the tier table and
 * nothing written.
 */
export function emptyProjection(input: EmptyProjectionInput): TenantProjection {
  const result = recompute({
    companyId: input.tenantId,
    pathProfile: input.tier.pathProfile,
    facts: [],
    manualCompletions: input.completions ?? [],
    capabilities: input.tier.capabilities,
    upgradeContexts: input.upgradeContexts,
    previousBand: input.lastBand ?? null,
    version: input.version ?? 0,
    now: input.now,
  });
  return projectionOf({
    result,
    ledger: [],
    facts: [],
    items: {},
    capabilities: input.tier.capabilities,
    appliedEvents: 0,
  });
}
