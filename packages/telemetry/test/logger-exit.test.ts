import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const EXIT_WITHIN_MS = 5_000;

/**
 * A process whose log reader has gone must still exit. Seen with pino's asynchronous default:
 * a local stack stopped with Ctrl-C lost its log reader first, and a service's exit then spun in
 * sonic-boom's flushSync on EPIPE forever, past the shutdown guard's exit(1).
 */
describe('createLogger', () => {
  it('lets the process exit when standard output is a pipe whose reader has gone', async () => {
    // Logs one line, waits for the reader to go, then logs a few more and exits in the same
    // tick, as a shutdown does, so lines are still unwritten when the process exits.
    const script = `
      const { createLogger } = await import(${JSON.stringify(DIST)});
      const logger = createLogger({ service: 'exit-test' });
      process.on('SIGUSR2', () => {
        for (const step of ['shutting down', 'step done', 'shutdown complete']) logger.info(step);
        process.exit(3);
      });
      logger.info('first');
      setInterval(() => {}, 1_000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(JSON.parse(firstChunk.toString().split('\n')[0] ?? '')).toMatchObject({
      service: 'exit-test',
      msg: 'first',
    });
    child.stdout.destroy();
    child.kill('SIGUSR2');

    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      exited.then(([code]) => ({ code: code as number | null })),
      new Promise<'still running'>(
        (resolve) => (timer = setTimeout(() => resolve('still running'), EXIT_WITHIN_MS)),
      ),
    ]);
    clearTimeout(timer);
    if (outcome === 'still running') child.kill('SIGKILL');
    expect(outcome).toEqual({ code: 3 });
  });
});
