import { describe, expect, it } from '@jest/globals';
import { Readiness } from './readiness.js';
import { retryWithBackoff } from './retry.js';
import { installGracefulShutdown } from './graceful-shutdown.js';

describe('Readiness', () => {
  it('is ready only when every check passes, and says which one does not', async () => {
    const readiness = new Readiness();
    let mongoUp = false;
    readiness.register('mongo', async () => {
      if (!mongoUp) throw new Error('no server');
    });
    readiness.register('nats', async () => undefined);
    expect(await readiness.report()).toEqual({
      ready: false,
      shuttingDown: false,
      dependencies: { mongo: { ready: false, detail: 'no server' }, nats: { ready: true } },
    });
    mongoUp = true;
    expect((await readiness.report()).ready).toBe(true);
  });

  it('counts a check that hangs as not ready', async () => {
    const readiness = new Readiness();
    readiness.register('slow', () => new Promise(() => undefined));
    const report = await readiness.report();
    expect(report.ready).toBe(false);
    expect(report.dependencies['slow']?.detail).toMatch(/no answer/);
  });

  it('turns not ready for good once shutting down', async () => {
    const readiness = new Readiness();
    readiness.markShuttingDown();
    expect(await readiness.report()).toMatchObject({ ready: false, shuttingDown: true });
  });
});

describe('retryWithBackoff', () => {
  it('retries with growing delays until the attempt succeeds', async () => {
    const delays: number[] = [];
    let calls = 0;
    const value = await retryWithBackoff(
      async () => {
        calls += 1;
        if (calls < 4) throw new Error('not yet');
        return 'up';
      },
      { initialDelayMs: 4, maxDelayMs: 20, onRetry: (_e, _n, delay) => delays.push(delay) },
    );
    expect(value).toBe('up');
    expect(delays).toHaveLength(3);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(20);
  });

  it('stops when its signal aborts', async () => {
    const controller = new AbortController();
    const pending = retryWithBackoff(async () => Promise.reject(new Error('down')), {
      initialDelayMs: 5,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toThrow();
  });
});

describe('installGracefulShutdown', () => {
  const logger = { info: () => undefined, error: () => undefined };

  it('turns readiness off first, runs every step in order even after a failure, and exits 0', async () => {
    const readiness = new Readiness();
    const order: string[] = [];
    const codes: number[] = [];
    const shutdown = installGracefulShutdown({
      readiness,
      logger,
      signals: [],
      exit: (code) => codes.push(code),
      steps: [
        {
          name: 'http',
          run: async () => void order.push(`http ready=${String((await readiness.report()).ready)}`),
        },
        { name: 'broken', run: async () => Promise.reject(new Error('boom')) },
        { name: 'db', run: async () => void order.push('db') },
      ],
    });
    await Promise.all([shutdown.shutdown('test'), shutdown.shutdown('again')]);
    expect(order).toEqual(['http ready=false', 'db']);
    expect(codes).toEqual([0]);
  });

  it('exits 1 when the steps outlast the timeout', async () => {
    const codes: number[] = [];
    const shutdown = installGracefulShutdown({
      readiness: new Readiness(),
      logger,
      signals: [],
      timeoutMs: 30,
      exit: (code) => codes.push(code),
      steps: [{ name: 'stuck', run: () => new Promise((resolve) => setTimeout(resolve, 100)) }],
    });
    await shutdown.shutdown('test');
    expect(codes[0]).toBe(1);
  });
});
