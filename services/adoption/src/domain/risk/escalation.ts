import { parseInstant, toIso } from '../time.js';
import { RISK_RULES, SEVERITY_STEP } from './risk-rules.js';
import type { Resolution, RiskSignal, Severity } from './risk-signal.js';
import { RESOLUTIONS, SEVERITIES } from './risk-signal.js';

const LADDER = ['AUTO_NUDGED', 'REO_PROMPTED', 'ESCALATED'] as const;

function severityAt(signal: RiskSignal, resolution: Resolution): Severity {
  const base = SEVERITIES.indexOf(RISK_RULES[signal.kind].baseSeverity);
  const grown = SEVERITIES[Math.min(SEVERITIES.length - 1, base + SEVERITY_STEP[resolution])] ?? 'CRITICAL';
  // Severity never falls while a signal is open, even if the rules change under it.
  return SEVERITIES.indexOf(grown) >= SEVERITIES.indexOf(signal.severity) ? grown : signal.severity;
}

/**
 * Moves an open signal up the ladder as far as the time since `detectedAt` warrants, never
 * down. ESCALATED sets `escalatedToHuman`. A RESOLVED signal is returned unchanged. Pure and
 * idempotent: advancing twice to the same instant is advancing once.
 */
export function advance(signal: RiskSignal, now: Date): RiskSignal {
  if (signal.resolution === 'RESOLVED') return signal;
  const detectedAt = parseInstant(signal.detectedAt);
  if (detectedAt === null) return signal;
  const elapsed = now.getTime() - detectedAt;
  const delays = RISK_RULES[signal.kind].delays;
  let resolution: Resolution = signal.resolution;
  for (const step of LADDER) {
    if (elapsed >= delays[step] && RESOLUTIONS.indexOf(step) > RESOLUTIONS.indexOf(resolution))
      resolution = step;
  }
  if (resolution === signal.resolution) return signal;
  return {
    ...signal,
    resolution,
    severity: severityAt(signal, resolution),
    escalatedToHuman: signal.escalatedToHuman || resolution === 'ESCALATED',
  };
}

/**
 * Resolves a signal at `at`, from whatever rung it had reached by then (it is advanced to `at`
 * first, so a risk that lasted past its escalation delay is recorded as escalated to a human).
 */
export function resolve(signal: RiskSignal, at: Date): RiskSignal {
  if (signal.resolution === 'RESOLVED') return signal;
  return { ...advance(signal, at), resolution: 'RESOLVED', resolvedAt: toIso(at.getTime()) };
}
