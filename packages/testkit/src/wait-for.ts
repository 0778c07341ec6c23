import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` until it returns true, failing with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  { timeoutMs = 10_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(intervalMs);
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** A promise a callback opens, for waiting on a signal rather than on time. */
export function gateOpen(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/**
 * Polls `remaining` (work still to do: unacked messages, missing events) until it reaches 0.
 * Fails only when it has not shrunk for `idleMs` (work that stopped), not when a busy machine
 * makes steady progress slowly; `maxMs` still bounds the whole wait. The error says how far it got.
 */
export async function waitForDrain(
  what: string,
  remaining: () => Promise<number>,
  {
    idleMs = 60_000,
    maxMs = 600_000,
    intervalMs = 100,
  }: { idleMs?: number; maxMs?: number; intervalMs?: number } = {},
): Promise<void> {
  const startedAt = Date.now();
  let least = Number.POSITIVE_INFINITY;
  let progressAt = startedAt;
  for (;;) {
    const left = await remaining();
    if (left <= 0) return;
    const now = Date.now();
    if (left < least) [least, progressAt] = [left, now];
    if (now - progressAt > idleMs || now - startedAt > maxMs)
      throw new Error(
        `${what}: ${left} left after ${now - startedAt} ms (no progress for ${now - progressAt} ms)`,
      );
    await sleep(intervalMs);
  }
}
