import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));

/**
 * Ctrl-C reaches a whole process group, and a supervisor may signal as well: a service gets two
 * signals at once. The second must join the shutdown under way, not kill the process mid-drain.
 */
describe('installGracefulShutdown under repeated signals', () => {
  it('runs the steps once and exits 0 when SIGINT and SIGTERM arrive together', async () => {
    const script = `
      const { installGracefulShutdown, Readiness } = await import(${JSON.stringify(DIST)});
      const logger = { info: () => undefined, error: (o, m) => console.error(m) };
      let runs = 0;
      installGracefulShutdown({
        readiness: new Readiness(),
        logger,
        steps: [{ name: 'drain', run: async () => { runs += 1; await new Promise((r) => setTimeout(r, 300)); } }],
        exit: (code) => { console.log(JSON.stringify({ runs, code })); process.exit(code); },
      });
      console.log('ready');
      setInterval(() => {}, 1_000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, 'exit');
    await new Promise<void>((resolve) => {
      const check = () => (output.includes('ready') ? resolve() : setTimeout(check, 10));
      check();
    });
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill('SIGTERM');
    child.kill('SIGINT');

    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(JSON.parse(output.trim().split('\n').at(-1) ?? '')).toEqual({ runs: 1, code: 0 });
  });
});
