import type { SignalTransition } from '../domain/index.js';
import type { AggregatesRepository, DriftRepository, DueTenant, TierCatalogue } from '../ports.js';
import type { EventOutbox } from './event-outbox.js';
import { refreshProjection } from './refresh-projection.js';

/** Tenants one pass looks at, at most; the rest wait for the next tick, most overdue first. */
export const DRIFT_BATCH_SIZE = 100;

/**
 * How soon a tenant whose drift write lost to another writer is due again. The winner usually
 * wrote the same or a newer truth, but a consumer write recomputed just before a ladder step was
 * due can land after the pass read the tenant: its ledger lacks the step, and the pass has moved
 * the schedule to the next step (days away). The next pass looks again and finds either nothing
 * to do or the step to record.
 */
export const SUPERSEDED_RECHECK_MS = 1_000;

export interface DriftWatchDeps {
  readonly aggregates: AggregatesRepository;
  readonly drift: DriftRepository;
  readonly now: () => Date;
  readonly rescanMs: number;
  readonly leaseMs: number;
  readonly onTransitions: (tenantId: string, transitions: readonly SignalTransition[]) => void;
  readonly onTenantError: (tenantId: string, error: unknown) => void;
  /** The per-tier table: a tenant no `tier.changed` reached yet has the default tier's entry. */
  readonly tiers?: TierCatalogue;
  /** The outbox of the outbound events a pass causes (ladder moves, band and rung changes). */
  readonly events?: EventOutbox;
}

/** What one pass did. */
export interface DriftPassReport {
  /** Tenants this replica claimed. */
  readonly claimed: number;
  /** Claimed tenants whose ledger it wrote. */
  readonly recorded: number;
  /** Ladder moves it recorded (each is recorded by exactly one writer). */
  readonly transitions: number;
  /** Claimed tenants another writer changed in between; the winner's write stands. */
  readonly superseded: number;
  readonly failed: number;
}

type Outcome = 'recorded' | 'superseded';

async function checkTenant(
  deps: DriftWatchDeps,
  due: DueTenant,
  now: Date,
): Promise<{ outcome: Outcome; moved: number }> {
  const refresh = await refreshProjection(deps, due.tenantId, now, { alwaysReschedule: true });
  if (!refresh.recorded) {
    await deps.drift.schedule(due.tenantId, new Date(now.getTime() + SUPERSEDED_RECHECK_MS));
    return { outcome: 'superseded', moved: 0 };
  }
  if (refresh.transitions.length > 0) deps.onTransitions(due.tenantId, refresh.transitions);
  return { outcome: 'recorded', moved: refresh.transitions.length };
}

/**
 * One drift-watch pass: each tenant whose check is due is claimed (an insert, so replicas
 * running the pass at once split the tenants instead of sharing them), recomputed as of now with
 * its stored tier snapshot, and its ledger and projection stored if nothing moved since the read.
 * Every tenant with activity is due at least every `rescanMs` (nextDriftCheck), so what time
 * alone changes (health decay, risk windows) reaches the projection here, never on a read. A write that
 * lost to the consumer or another replica is dropped (no ladder move is reported twice) and the
 * tenant is looked at again by the next pass (SUPERSEDED_RECHECK_MS).
 */
export async function runDriftPass(deps: DriftWatchDeps): Promise<DriftPassReport> {
  const due = await deps.drift.due(deps.now(), DRIFT_BATCH_SIZE);
  const report = { claimed: 0, recorded: 0, transitions: 0, superseded: 0, failed: 0 };
  for (const tenant of due) {
    const now = deps.now();
    let claim: string | null = null;
    try {
      claim = await deps.drift.claim(tenant, now, deps.leaseMs);
      if (claim === null) continue;
      report.claimed += 1;
      const { outcome, moved } = await checkTenant(deps, tenant, now);
      report[outcome] += 1;
      report.transitions += moved;
    } catch (error) {
      report.failed += 1;
      deps.onTenantError(tenant.tenantId, error);
    } finally {
      if (claim !== null)
        await deps.drift.release(claim).catch((error: unknown) => deps.onTenantError(tenant.tenantId, error));
    }
  }
  return report;
}
