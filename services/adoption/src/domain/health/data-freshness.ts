import type { FactLog, TimedFact } from '../facts/fact-log.js';
import { decayWeight, DAY_MS } from '../time.js';
import type { ComponentScore } from './component-score.js';
import { toPercent, topEventIds } from './component-score.js';
import {
  FAILED_RUN_KINDS,
  FRESHNESS_HALF_LIFE_MS,
  FRESHNESS_WINDOW_MS,
  SUCCESSFUL_RUN_KINDS,
} from './health-model.js';

const absent: ComponentScore = {
  code: 'DATA_FRESHNESS',
  present: false,
  value: 0,
  eventIds: [],
  reason: 'No imports or integrations yet, so freshness is left out of the score.',
};

/**
 * Success rate of the last 7 days' import and integration runs, times how fresh the last good
 * run is (halving every 7 days). Absent for tenants that never ran one: keying data by hand is
 * a choice, not a fault.
 */
export function dataFreshness(log: FactLog, now: number): ComponentScore {
  const runs: TimedFact[] = log.facts.filter(
    (f) => SUCCESSFUL_RUN_KINDS.includes(f.type) || FAILED_RUN_KINDS.includes(f.type),
  );
  if (runs.length === 0) return absent;
  const recent = runs.filter((f) => now - f.at <= FRESHNESS_WINDOW_MS);
  const succeeded = recent.filter((f) => SUCCESSFUL_RUN_KINDS.includes(f.type)).length;
  const successRate = recent.length === 0 ? 1 : succeeded / recent.length;
  const lastGood = runs.filter((f) => SUCCESSFUL_RUN_KINDS.includes(f.type)).at(-1);
  const freshness = lastGood === undefined ? 0 : decayWeight(now - lastGood.at, FRESHNESS_HALF_LIFE_MS);
  const explaining = recent.length > 0 ? recent : lastGood === undefined ? [] : [lastGood];
  const ageDays = lastGood === undefined ? null : Math.floor(Math.max(0, now - lastGood.at) / DAY_MS);
  return {
    code: 'DATA_FRESHNESS',
    present: true,
    value: toPercent(successRate * freshness),
    eventIds: topEventIds(explaining.map((f) => ({ id: f.id, weight: f.at }))),
    reason:
      `${succeeded} of ${recent.length} runs in the last 7 days succeeded; ` +
      (ageDays === null ? 'no run has ever succeeded.' : `the last good run was ${ageDays} day(s) ago.`),
  };
}
