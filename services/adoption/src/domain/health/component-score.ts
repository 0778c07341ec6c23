import type { HealthComponentCode } from './health-model.js';
import { MAX_EXPLAINING_EVENTS } from './health-model.js';

/** One component's result before weighting. */
export interface ComponentScore {
  readonly code: HealthComponentCode;
  /** False when the tenant has no data for it: it then drops out of the score. */
  readonly present: boolean;
  /** Integer 0 to 100 (0 when absent). */
  readonly value: number;
  /** The facts that moved it most, strongest first. */
  readonly eventIds: readonly string[];
  /** A sentence a tenant can read. */
  readonly reason: string;
}

/** A fact's share of a component. */
export interface Contribution {
  readonly id: string;
  readonly weight: number;
}

/** The strongest contributions' ids, ties broken by id so replays list the same events. */
export function topEventIds(contributions: readonly Contribution[]): readonly string[] {
  return [...contributions]
    .sort((a, b) => b.weight - a.weight || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, MAX_EXPLAINING_EVENTS)
    .map((c) => c.id);
}

/** 0..1 → integer 0..100. */
export function toPercent(ratio: number): number {
  return Math.round(100 * Math.min(1, Math.max(0, ratio)));
}

/** A number for a sentence: at most one decimal. */
export function formatPoints(value: number): string {
  return String(Math.round(value * 10) / 10);
}
