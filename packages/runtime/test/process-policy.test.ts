import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/** Runs a script with the policy installed and the real logger; its exit and its log lines. */
async function run(fault: string): Promise<{ code: number | null; lines: Array<Record<string, unknown>> }> {
  const script = `
    const { createLogger } = await import('@tap/telemetry');
    const { installProcessPolicy } = await import(${JSON.stringify(RUNTIME)});
    const logger = createLogger({ service: 'policy-test', level: 'info' });
    installProcessPolicy({ service: 'policy-test', logger });
    setInterval(() => {}, 1_000);
    setTimeout(() => { ${fault} }, 10);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const lines = out
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, lines };
}

describe('the process policy', () => {
  it('logs an uncaught exception once at fatal level with a stable message, then exits 70', async () => {
    const { code, lines } = await run(`throw new Error('bug in a callback')`);
    expect(code).toBe(70);
    const fatal = lines.filter((line) => line['level'] === 'fatal');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({
      service: 'policy-test',
      origin: 'uncaughtException',
      msg: 'FATAL uncaught exception: exiting so that a clean process replaces this one',
      err: { message: 'bug in a callback' },
    });
  });

  it('treats an unhandled rejection the same way, with its own message', async () => {
    const { code, lines } = await run(`void Promise.reject(new Error('nobody awaited me'))`);
    expect(code).toBe(70);
    const fatal = lines.filter((line) => line['level'] === 'fatal');
    expect(fatal).toHaveLength(1);
    expect(fatal[0]).toMatchObject({
      origin: 'unhandledRejection',
      msg: 'FATAL unhandled rejection: exiting so that a clean process replaces this one',
      err: { message: 'nobody awaited me' },
    });
  });
});
