import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it returns a value (not undefined) or `timeoutMs` passes. Bounded. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/**
 * Polls `probe` until its count reaches `target`. Fails only when the count has not grown for
 * `idleMs` (work that stopped: a lost or stuck event), not when a busy machine makes steady
 * progress slowly; `maxMs` still bounds the whole wait. The error says how far it got.
 */
export async function waitForCount<T>(
  probe: () => Promise<{ count: number; value: T }>,
  target: number,
  options: { idleMs: number; maxMs: number; everyMs?: number },
): Promise<T> {
  const startedAt = Date.now();
  let best = -1;
  let progressAt = startedAt;
  for (;;) {
    const { count, value } = await probe();
    if (count >= target) return value;
    const now = Date.now();
    if (count > best) [best, progressAt] = [count, now];
    if (now - progressAt > options.idleMs || now - startedAt > options.maxMs)
      throw new Error(
        `${count} of ${target} after ${now - startedAt} ms (no progress for ${now - progressAt} ms)`,
      );
    await sleep(options.everyMs ?? 500);
  }
}
