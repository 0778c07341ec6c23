import type { SuccessPlan } from '../domain/index.js';

/** The ACTIVE plan of a chain (its last generation), or null. */
export function activePlanOf(chain: readonly SuccessPlan[]): SuccessPlan | null {
  return chain.at(-1) ?? null;
}
