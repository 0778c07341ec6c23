/**
 * The sliding-window arithmetic, as pure functions over one window's sub-window counters
 * (sub-window index -> units). The Lua script in `script.ts` is the same arithmetic run inside
 * Redis; the in-process fallback runs this copy. Both count, for a check at time `now` in
 * sub-window `cur`, every unit charged in sub-windows `cur - subWindows .. cur`: the current
 * one, the `subWindows - 1` whole ones before it, and the one that is partly out of the window.
 *
 * Counting the partly expired sub-window in full is what bounds the error: every instant of
 * `[now - windowMs, now]` lies in a counted sub-window, so no interval of `windowMs` ever holds
 * more than `limit` admitted units. The price is on the other side: the counted span is at most
 * one sub-window longer than `windowMs`, so a refusal means at least `limit - cost + 1` units
 * were admitted in the last `windowMs + windowMs / subWindows`.
 */

/** The shape of a window the arithmetic needs. */
export interface WindowGeometry {
  readonly limit: number;
  readonly subWindows: number;
  readonly subWindowMs: number;
}

/** One window's state at one instant, for a request of `cost` units. */
export interface WindowEvaluation {
  /** Units counted in the window now (before this request is charged). */
  readonly used: number;
  /** Whether `cost` more units fit. */
  readonly fits: boolean;
  /** Epoch ms when every unit counted now has left the window (now, if none is counted). */
  readonly resetAt: number;
  /** Epoch ms from which `cost` units fit, if nothing else is charged; `null` if they never can (cost > limit). */
  readonly retryAt: number | null;
}

/** Index of the sub-window holding instant `now`. */
export function subWindowIndex(now: number, subWindowMs: number): number {
  return Math.floor(now / subWindowMs);
}

/** Epoch ms at which the units of sub-window `index` stop being counted. */
export function leavesWindowAt(index: number, geometry: WindowGeometry): number {
  return (index + geometry.subWindows + 1) * geometry.subWindowMs;
}

/** Whether sub-window `index` is still counted at `now`. */
export function isCounted(index: number, now: number, geometry: WindowGeometry): boolean {
  return index >= subWindowIndex(now, geometry.subWindowMs) - geometry.subWindows;
}

/** Evaluates a window's counters for a request of `cost` units at `now`. Entries no longer counted are ignored. */
export function evaluateWindow(
  counters: ReadonlyMap<number, number>,
  geometry: WindowGeometry,
  now: number,
  cost: number,
): WindowEvaluation {
  const live = [...counters].filter(([index]) => isCounted(index, now, geometry)).sort(([a], [b]) => a - b);
  const used = live.reduce((sum, [, units]) => sum + units, 0);
  const newest = live.at(-1);
  const resetAt = newest ? leavesWindowAt(newest[0], geometry) : now;
  const fits = used + cost <= geometry.limit;
  return {
    used,
    fits,
    resetAt,
    retryAt: fits ? now : retryAt(live, used + cost - geometry.limit, cost, geometry),
  };
}

/** When enough of the oldest units have left the window to free `needed` units. */
function retryAt(
  live: ReadonlyArray<readonly [number, number]>,
  needed: number,
  cost: number,
  geometry: WindowGeometry,
): number | null {
  if (cost > geometry.limit) return null;
  let freed = 0;
  for (const [index, units] of live) {
    freed += units;
    if (freed >= needed) return leavesWindowAt(index, geometry);
  }
  // Unreachable while used + cost > limit >= cost; kept total for the type checker.
  return null;
}
