import { describe, expect, it } from '@jest/globals';
import { startHealthServer } from './health-server.js';
import { publicReadiness, Readiness } from './readiness.js';
import { READINESS_LOG_INTERVAL_MS } from './readiness-log.js';

const INTERNAL = 'connect ECONNREFUSED 10.1.2.3:50053 at TCPConnectWrap.afterConnect (node:net:1555:16)';

describe('/readyz on a health port', () => {
  it('names the failing checks and shows none of their errors', async () => {
    const readiness = new Readiness();
    readiness.register('mongo', async () => undefined);
    readiness.register('nats', () => Promise.reject(new Error(INTERNAL)));
    readiness.register('redis', () =>
      Promise.reject(new Error('redis://:secret@cache.internal:6379 closed')),
    );
    const server = await startHealthServer({ host: '127.0.0.1', port: 0, readiness });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/readyz`);
      const body = await response.text();
      expect(response.status).toBe(503);
      expect(JSON.parse(body)).toEqual({ status: 'not ready', down: ['nats', 'redis'] });
      for (const leak of ['10.1.2.3', '50053', 'ECONNREFUSED', 'secret', 'cache.internal', 'node:net'])
        expect(body).not.toContain(leak);
    } finally {
      await server.close();
    }
  });

  it('says ready with nothing down, and shutting down once it is', async () => {
    const readiness = new Readiness();
    readiness.register('mongo', async () => undefined);
    expect(publicReadiness(await readiness.report())).toEqual({ status: 'ready', down: [] });
    readiness.markShuttingDown();
    expect(publicReadiness(await readiness.report())).toEqual({
      status: 'not ready',
      down: [],
      shuttingDown: true,
    });
  });
});

describe('the log of failing readiness checks', () => {
  it('writes the error once per interval per check, counts the rest, and one line on recovery', async () => {
    let now = 0;
    const lines: Array<{ level: string; object: Record<string, unknown>; message: string }> = [];
    const logger = {
      warn: (object: object, message: string) =>
        void lines.push({ level: 'warn', object: object as Record<string, unknown>, message }),
      info: (object: object, message: string) =>
        void lines.push({ level: 'info', object: object as Record<string, unknown>, message }),
    };
    const readiness = new Readiness();
    readiness.setLogger(logger, () => now);
    let up = false;
    readiness.register('entitlements', async () => {
      if (!up) throw new Error(INTERNAL);
    });
    // A probe every second for a minute and a half, the dependency flapping for part of it.
    for (let second = 0; second < 90; second += 1) {
      now = second * 1_000;
      up = second >= 20 && second < 40 && second % 2 === 0;
      await readiness.report();
    }
    up = true;
    now = 91_000;
    await readiness.report();
    await readiness.report();

    const failures = lines.filter((line) => line.level === 'warn');
    expect(failures.length).toBe(Math.ceil(90_000 / READINESS_LOG_INTERVAL_MS));
    expect(failures[0]).toMatchObject({
      message: 'readiness check entitlements failing',
      object: { check: 'entitlements', err: INTERNAL, failuresNotLogged: 0 },
    });
    expect(failures[1]?.object['failuresNotLogged']).toBeGreaterThan(40);
    expect(lines.filter((line) => line.level === 'info').length).toBeLessThanOrEqual(failures.length);
    expect(lines.at(-1)).toMatchObject({
      level: 'info',
      message: 'readiness check entitlements passes again',
    });
  });
});
