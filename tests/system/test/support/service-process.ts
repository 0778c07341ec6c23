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
