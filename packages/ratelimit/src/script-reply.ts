/** One window as the script reports it. */
export interface ScriptWindow {
  readonly fits: boolean;
  readonly used: number;
  readonly resetAt: number;
  /** Epoch ms, or -1 when the cost can never fit. */
  readonly retryAt: number;
}

const FIELDS_PER_WINDOW = 4;

/**
 * Reads the script's flat integer reply (see `script.ts`). Returns `undefined` for anything
 * else, which only a foreign script under our SHA or a broken proxy could produce.
 */
export function parseScriptReply(reply: unknown, windowCount: number): { allowed: boolean; now: number; windows: ScriptWindow[] } | undefined {
  if (!Array.isArray(reply) || reply.length !== 2 + FIELDS_PER_WINDOW * windowCount) return undefined;
  const numbers: unknown[] = reply;
  if (!numbers.every((value): value is number => typeof value === 'number' && Number.isSafeInteger(value))) return undefined;
  const windows: ScriptWindow[] = [];
  for (let i = 0; i < windowCount; i += 1) {
    const [fits = 0, used = 0, resetAt = 0, retryAt = -1] = numbers.slice(2 + FIELDS_PER_WINDOW * i, 2 + FIELDS_PER_WINDOW * (i + 1));
    windows.push({ fits: fits === 1, used, resetAt, retryAt });
  }
  return { allowed: numbers[0] === 1, now: numbers[1] ?? 0, windows };
}
