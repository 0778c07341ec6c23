import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { StartedServer } from '../infrastructure.js';
import { waitForPort } from './wait-for-port.js';

const START_TIMEOUT_MS = 20_000;
const STOP_GRACE_MS = 5_000;

export interface ServerSpec {
  readonly name: string;
  readonly binary: string;
  readonly args: readonly string[];
  readonly port: number;
  readonly url: string;
}

/**
 * Starts a server process bound to loopback and waits until it accepts connections. Its output
 * is kept (bounded) and shown only if it fails to start, so test logs stay quiet.
 */
export async function spawnServer(spec: ServerSpec): Promise<StartedServer> {
  const child = spawn(spec.binary, [...spec.args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString()).slice(-4_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  try {
    await waitForPort(spec.port, START_TIMEOUT_MS, () => !exited);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${spec.name} did not start: ${(error as Error).message}\n${output}`);
  }
  return {
    url: spec.url,
    pid: child.pid,
    async stop() {
      if (exited) return;
      const done = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await done;
      clearTimeout(timer);
    },
  };
}
