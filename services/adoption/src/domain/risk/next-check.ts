import { parseInstant, RISK_RULES, type RiskSignal } from '../index.js';

const LADDER = ['AUTO_NUDGED', 'REO_PROMPTED', 'ESCALATED'] as const;
// A due time is never closer than this, so a signal whose step is already past cannot make
// the watch spin on one tenant.
const MIN_GAP_MS = 1_000;

/**
 * When the drift watch should next recompute a tenant: the earliest next ladder step of an
 * open signal, and at the latest `rescanMs` from now (a risk that starts with time alone,
 * such as an invitation left unaccepted, and health decay need a look without any new event).
 * Null while the tenant has no facts: nothing can drift.
 */
export function nextDriftCheck(
  signals: readonly RiskSignal[],
  hasFacts: boolean,
  now: Date,
  rescanMs: number,
): Date | null {
  if (!hasFacts) return null;
  let due = now.getTime() + rescanMs;
  for (const signal of signals) {
    if (signal.resolution === 'RESOLVED') continue;
    const detectedAt = parseInstant(signal.detectedAt);
    if (detectedAt === null) continue;
    // OPEN is not on LADDER (-1), so its next step is the first one.
    const reached = (LADDER as readonly string[]).indexOf(signal.resolution);
    const next = LADDER[reached + 1];
    if (next === undefined) continue;
    due = Math.min(
      due,
      Math.max(detectedAt + RISK_RULES[signal.kind].delays[next], now.getTime() + MIN_GAP_MS),
    );
  }
  return new Date(due);
}

/**
 * The due time a write must put in the drift schedule, or undefined when the one there already
 * comes first. Only an earlier check needs writing: a check that comes early finds nothing to do
 * and schedules the next one itself, so most writes skip the extra update.
 */
export function earlierCheck(scheduled: Date | null, next: Date | null): Date | undefined {
  if (next === null) return undefined;
  return scheduled === null || next.getTime() < scheduled.getTime() ? next : undefined;
}
