import type { MaturityRung } from './adoption-state.js';
import { MATURITY_RUNGS } from './adoption-state.js';

/**
 * The milestones that open each rung above ONBOARDED: any one of them DONE satisfies the gate.
 * Each gate names at least one milestone that applies to each profile.
 */
export const RUNG_GATES: Readonly<Record<Exclude<MaturityRung, 'ONBOARDED'>, readonly string[]>> = {
  CONNECTED: ['first_connection_made'],
  EXCHANGING: ['first_data_exchange', 'first_data_request_answered'],
  TRACED: ['first_trace_recorded', 'first_passport_published'],
  STRATEGIC: ['network_of_ten', 'reliable_responder', 'supplier_cascade_completed'],
};

/** The rung and a sentence saying why. */
export interface RungDecision {
  readonly rung: MaturityRung;
  readonly reason: string;
}

/** The gate milestones of a rung (none for ONBOARDED). */
export function gateOf(rung: MaturityRung): readonly string[] {
  return rung === 'ONBOARDED' ? [] : RUNG_GATES[rung];
}

/** The rung above, or null at the top. */
export function nextRung(rung: MaturityRung): MaturityRung | null {
  return MATURITY_RUNGS[MATURITY_RUNGS.indexOf(rung) + 1] ?? null;
}

/**
 * The highest rung whose gate, and every gate below it, is satisfied by a completed milestone.
 * The ladder is climbed in order: a tenant that records a trace before any exchange is
 * CONNECTED, not TRACED. `done` holds every milestone the facts complete, whatever the path
 * profile asks for, so a tenant that changes path (Core → Enterprise moves SUPPLIER → SVC)
 * keeps its rung; and since nothing un-completes, the rung never goes down.
 */
export function maturityRung(done: ReadonlySet<string>): RungDecision {
  let rung: MaturityRung = 'ONBOARDED';
  let reason = 'Every tenant starts ONBOARDED.';
  for (let next = nextRung(rung); next !== null; next = nextRung(next)) {
    const gate = gateOf(next);
    const met = gate.find((key) => done.has(key));
    if (met === undefined) {
      return { rung, reason: `${reason} ${next} needs one of: ${gate.join(', ')}.` };
    }
    rung = next;
    reason = `${next} because ${met} is done.`;
  }
  return { rung, reason: `${reason} This is the top rung.` };
}
