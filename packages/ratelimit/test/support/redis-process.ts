import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeLoopbackPort, waitForPort } from '@tap/testkit';

const START_TIMEOUT_MS = 10_000;

/** A redis-server this test file owns, on 127.0.0.1, so it can be killed, paused and restarted. */
export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** SIGKILL: connections drop at once, as in a crash. */
  kill(): Promise<void>;
  /** SIGSTOP / SIGCONT: the port stays open but nothing answers, as in a hung server. */
  pause(): void;
  resume(): void;
  /** Starts it again on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Kills it and removes its folder. */
  stop(): Promise<void>;
}

/** Starts a private redis-server; `extraArgs` e.g. turn on cluster mode. */
export async function startOwnRedis(extraArgs: readonly string[] = []): Promise<OwnRedis> {
  const port = await freeLoopbackPort();
  const dir = mkdtempSync(join(tmpdir(), 'tap-ratelimit-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    ...extraArgs,
  ];
  let child: ChildProcess | undefined;

  const start = async (): Promise<void> => {
    const started = spawn('redis-server', args, { stdio: 'ignore' });
    let exited = false;
    started.once('exit', () => {
      exited = true;
    });
    child = started;
    await waitForPort(port, START_TIMEOUT_MS, () => !exited);
  };

  const kill = async (): Promise<void> => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = once(current, 'exit');
    current.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill,
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    restart: start,
    async stop() {
      child?.kill('SIGCONT');
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
