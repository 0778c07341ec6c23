import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

export interface ServiceProcess {
  readonly child: ChildProcess;
  stderr(): string;
  stdout(): string;
  /** Resolves with the exit code (or 128+signal) and how long after `since` it came. */
  exited(): Promise<{ code: number; at: number }>;
}

/** Starts a built service (`services/<name>/dist/main.js`) as its own process with `env`. */
export function startServiceProcess(name: string, env: Record<string, string | undefined>): ServiceProcess {
  const child = spawn(process.execPath, [`services/${name}/dist/main.js`], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'], LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: typeof code === 'number' ? code : 128 + (signal === 'SIGKILL' ? 9 : 15),
    at: Date.now(),
  }));
  return { child, stderr: () => err, stdout: () => out, exited: () => exit };
}

/** GET a URL; undefined when nothing answers. */
export async function probe(url: string): Promise<number | undefined> {
  try {
    return (await fetch(url, { signal: AbortSignal.timeout(3_000) })).status;
  } catch {
    return undefined;
  }
}

/** How long a service may take to become ready on a loaded machine before the wait gives up. */
export const READY_BOUND_MS = 240_000;

/**
 * Waits until `readyzUrl` answers 200. Driven by the process, not a budget: it fails at once
 * when the process exits (with its last log lines), and otherwise only after the generous
 * READY_BOUND_MS a busy machine does not reach (a fresh clone once ran out of a 30 s wait).
 */
export async function untilReady(
  service: ServiceProcess,
  readyzUrl: string,
  boundMs = READY_BOUND_MS,
): Promise<void> {
  const startedAt = Date.now();
  const exited = service.exited().then(() => 'exited' as const);
  for (;;) {
    if ((await probe(readyzUrl)) === 200) return;
    const waited = Date.now() - startedAt;
    if (waited > boundMs || service.child.exitCode !== null || service.child.signalCode !== null) {
      const body = await fetch(readyzUrl).then(
        (response) => response.text(),
        (error: Error) => error.message,
      );
      const why =
        service.child.exitCode !== null
          ? `exited with ${service.child.exitCode}`
          : `not ready after ${waited} ms`;
      throw new Error(
        `${readyzUrl}: ${why}; /readyz says ${body}; logs: ${(service.stderr() + service.stdout()).slice(-2_000)}`,
      );
    }
    // The next probe comes after 200 ms, or at once when the process exits.
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
}
