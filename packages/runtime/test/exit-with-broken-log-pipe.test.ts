import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const RUNTIME = fileURLToPath(new URL('../dist/index.js', import.meta.url));
const EXIT_WITHIN_MS = 5_000;

/**
 * Seen with the local stack stopped by Ctrl-C: the log reader went first, and a service then
 * never exited. Its exit spun in sonic-boom's synchronous flush (pino's exit hook), retrying the
 * EPIPE every 100 ms forever, past the shutdown guard. The shutdown now flushes asynchronously
 * before it exits.
 */
describe('a graceful shutdown whose log reader has gone', () => {
  it('still exits 0, with log lines still buffered at the end', async () => {
    const script = `
      const { createLogger } = await import('@tap/telemetry');
      const { installGracefulShutdown, Readiness } = await import(${JSON.stringify(RUNTIME)});
      const logger = createLogger({ service: 'exit-test' });
      installGracefulShutdown({
        readiness: new Readiness(),
        logger,
        steps: [{ name: 'drain', run: async () => { for (let i = 0; i < 50; i += 1) logger.info({ i }, 'draining'); } }],
      });
      logger.info('ready');
      setInterval(() => {}, 1_000);
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = once(child, 'exit');
    const [firstChunk] = (await once(child.stdout, 'data')) as [Buffer];
    expect(firstChunk.toString()).toContain('"msg":"ready"');
    child.stdout.destroy();
    child.kill('SIGTERM');

    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race([
      exited.then(([code]) => ({ code: code as number | null })),
      new Promise<'still running'>(
        (resolve) => (timer = setTimeout(() => resolve('still running'), EXIT_WITHIN_MS)),
      ),
    ]);
    clearTimeout(timer);
    if (outcome === 'still running') child.kill('SIGKILL');
    expect(outcome).toEqual({ code: 0 });
  });
});
