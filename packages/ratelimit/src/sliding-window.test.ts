import { describe, expect, it } from '@jest/globals';
import { evaluateWindow, subWindowIndex, type WindowGeometry } from './sliding-window.js';

interface Arrival {
  readonly at: number;
  readonly cost: number;
}

/** Runs arrivals (sorted by time) through one window; returns each arrival with its outcome. */
function simulate(geometry: WindowGeometry, arrivals: readonly Arrival[]) {
  const counters = new Map<number, number>();
  return arrivals.map((arrival) => {
    const evaluation = evaluateWindow(counters, geometry, arrival.at, arrival.cost);
    if (evaluation.fits) {
      const index = subWindowIndex(arrival.at, geometry.subWindowMs);
      counters.set(index, (counters.get(index) ?? 0) + arrival.cost);
    }
    return { ...arrival, evaluation, snapshot: new Map(counters) };
  });
}

function randomArrivals(seed: number, count: number, spanMs: number): Arrival[] {
  let state = seed;
  const next = (): number => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  // Bursts at random instants, some of them right at sub-window edges, which is where
  // window counters usually go wrong.
  const arrivals: Arrival[] = [];
  while (arrivals.length < count) {
    const at = Math.floor(next() * spanMs);
    const size = 1 + Math.floor(next() * 8);
    for (let i = 0; i < size; i += 1) arrivals.push({ at, cost: 1 + Math.floor(next() * 3) });
  }
  return arrivals.slice(0, count).sort((a, b) => a.at - b.at);
}

const WINDOW_MS = 1_000;

describe('the sliding-window arithmetic', () => {
  const shapes = [1, 2, 4, 10, 50].flatMap((subWindows) =>
    [1, 5, 40].map((limit) => ({ subWindows, limit })),
  );

  it.each(shapes)(
    'never admits more than the limit in any window-long interval ($subWindows sub-windows, limit $limit)',
    ({ subWindows, limit }) => {
      const geometry = { limit, subWindows, subWindowMs: WINDOW_MS / subWindows };
      for (let seed = 1; seed <= 20; seed += 1) {
        const outcomes = simulate(geometry, randomArrivals(seed, 400, 8_000));
        const admitted = outcomes.filter((o) => o.evaluation.fits);
        for (const end of admitted) {
          const inWindow = admitted.filter((o) => o.at >= end.at - WINDOW_MS && o.at <= end.at);
          expect(inWindow.reduce((sum, o) => sum + o.cost, 0)).toBeLessThanOrEqual(limit);
        }
      }
    },
  );

  it.each(shapes)(
    'refuses only when the window plus one sub-window is full ($subWindows sub-windows, limit $limit)',
    ({ subWindows, limit }) => {
      const geometry = { limit, subWindows, subWindowMs: WINDOW_MS / subWindows };
      for (let seed = 1; seed <= 20; seed += 1) {
        const outcomes = simulate(geometry, randomArrivals(seed, 400, 8_000));
        const admitted = outcomes.filter((o) => o.evaluation.fits);
        for (const refused of outcomes.filter((o) => !o.evaluation.fits)) {
          const counted = admitted.filter(
            (o) => o.at > refused.at - WINDOW_MS - geometry.subWindowMs && o.at <= refused.at,
          );
          expect(counted.reduce((sum, o) => sum + o.cost, 0) + refused.cost).toBeGreaterThan(limit);
        }
      }
    },
  );

  it('gives the exact instant a refused cost fits again: not a millisecond earlier', () => {
    const geometry = { limit: 5, subWindows: 4, subWindowMs: 250 };
    for (let seed = 1; seed <= 30; seed += 1) {
      for (const refused of simulate(geometry, randomArrivals(seed, 200, 5_000)).filter(
        (o) => !o.evaluation.fits,
      )) {
        const retryAt = refused.evaluation.retryAt;
        if (retryAt === null) throw new Error('a cost within the limit always fits eventually');
        expect(evaluateWindow(refused.snapshot, geometry, retryAt, refused.cost).fits).toBe(true);
        expect(evaluateWindow(refused.snapshot, geometry, retryAt - 1, refused.cost).fits).toBe(false);
      }
    }
  });

  it('refuses the second burst of the classic 2x pattern, whichever boundary it straddles', () => {
    const geometry = { limit: 10, subWindows: 4, subWindowMs: 250 };
    const burst = (at: number): Arrival[] => Array.from({ length: 10 }, () => ({ at, cost: 1 }));
    // At the end of a whole window, then at the start of the next (fixed windows admit 20 here).
    const windowEdge = simulate(geometry, [...burst(999), ...burst(1_001)]);
    expect(windowEdge.filter((o) => o.evaluation.fits)).toHaveLength(10);
    // At the end of a sub-window, then just after it is a whole window behind: counting only the
    // last four sub-windows would admit 20 within 752 ms of each other... of a 1 s window.
    const subEdge = simulate(geometry, [...burst(249), ...burst(1_001)]);
    expect(subEdge.filter((o) => o.evaluation.fits)).toHaveLength(10);
    expect(subEdge.at(-1)?.evaluation.retryAt).toBe(1_250);
  });

  it('says a cost above the limit never fits, and reports when the window empties', () => {
    const geometry = { limit: 3, subWindows: 3, subWindowMs: 100 };
    const counters = new Map([
      [1, 1],
      [2, 2],
    ]);
    const evaluation = evaluateWindow(counters, geometry, 250, 4);
    expect(evaluation).toEqual({ used: 3, fits: false, resetAt: 600, retryAt: null });
    expect(evaluateWindow(new Map(), geometry, 250, 1)).toEqual({
      used: 0,
      fits: true,
      resetAt: 250,
      retryAt: 250,
    });
  });

  it('ignores sub-windows that have left the window', () => {
    const geometry = { limit: 3, subWindows: 3, subWindowMs: 100 };
    expect(evaluateWindow(new Map([[0, 3]]), geometry, 399, 1).fits).toBe(false);
    expect(evaluateWindow(new Map([[0, 3]]), geometry, 400, 1).fits).toBe(true);
  });
});
