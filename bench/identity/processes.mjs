import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 60_000;

/** @returns {Promise<number>} a free loopback port */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts `node [nodeArgs] <script>` with `env`; its output is kept for error reports.
 * @param {string} script
 * @param {Record<string, string>} env
 * @param {string[]} [nodeArgs]
 */
export function startNode(script, env, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  child.stdout.on('data', (chunk) => (stdout += String(chunk)));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5_000).then(() => child.kill('SIGKILL'))]);
    },
  };
}

/**
 * Polls until `probe` returns a value (bounded).
 * @template T
 * @param {() => Promise<T | undefined>} probe
 * @param {string} what
 * @param {() => string} [output] the process's output, for the error
 * @returns {Promise<T>}
 */
export async function waitUntil(probe, what, output = () => '') {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`${what}: not ready within ${START_TIMEOUT_MS} ms\n${output()}`);
    await sleep(100);
  }
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux).
 * @param {number | undefined} pid
 */
export function cpuMs(pid) {
  if (!pid) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat (11 and 12 after the command name).
    return ((Number(fields[11]) + Number(fields[12])) * 1_000) / 100;
  } catch {
    return NaN;
  }
}

/**
 * Pids of the processes named `name` whose parent is `parentPid` (the servers @tap/testkit
 * started for this run), from /proc (Linux).
 * @param {number} parentPid
 * @param {string} name
 * @returns {number[]}
 */
export function childPids(parentPid, name) {
  /** @type {number[]} */
  const found = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === parentPid && comm.startsWith(name)) found.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return found;
}
