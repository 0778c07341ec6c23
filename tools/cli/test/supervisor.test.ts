import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { superviseProcess, type SupervisedProcess } from '../src/commands/supervisor.js';

/** A process that runs RUN_MS, then exits 3: a service that keeps dying. */
const DYING = `setTimeout(() => process.exit(3), Number(process.env.RUN_MS));`;

const dirs: string[] = [];
const supervised: SupervisedProcess[] = [];
afterEach(async () => {
  for (const p of supervised.splice(0)) await p.stop();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function loudLines(runMs: number, healthyResetMs: number, count: number): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'supervisor-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'dying.js'), DYING);
  let err = '';
  const dying = superviseProcess({
    name: 'dying',
    entry: 'dying.js',
    cwd: dir,
    env: { PATH: process.env['PATH'], RUN_MS: String(runMs) },
    output: { out: { write: () => true }, err: { write: (text: string) => (err += text) } },
    policy: { initialDelayMs: 20, maxDelayMs: 80, healthyResetMs },
  });
  supervised.push(dying);
  const deadline = Date.now() + 30_000;
  while (err.split('\n').filter(Boolean).length < count && Date.now() < deadline) await sleep(20);
  await dying.stop();
  return err.split('\n').filter(Boolean).slice(0, count);
}

describe('superviseProcess', () => {
  it('restarts a process that keeps dying with a doubling delay up to the maximum', async () => {
    expect(await loudLines(0, 60_000, 5)).toEqual([
      '[stack] !!! dying DIED (exit code 3); restart #1 in 0.02 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart #2 in 0.04 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart #3 in 0.08 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart #4 in 0.08 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart #5 in 0.08 s !!!',
    ]);
  });

  it('starts the backoff over after a run longer than the healthy time', async () => {
    const lines = await loudLines(300, 200, 3);
    expect(lines.map((line) => line.replace(/restart #\d+/, 'restart'))).toEqual([
      '[stack] !!! dying DIED (exit code 3); restart in 0.02 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart in 0.02 s !!!',
      '[stack] !!! dying DIED (exit code 3); restart in 0.02 s !!!',
    ]);
  });
});
