import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKeyedLock } from './keyed-lock.js';

describe('KeyedLock', () => {
  it('runs the work of one key one at a time, in arrival order, and other keys alongside', async () => {
    const lock = createKeyedLock();
    const log: string[] = [];
    const job = (key: string, name: string, ms: number) =>
      lock.run(key, async () => {
        log.push(`${name} start`);
        await sleep(ms);
        log.push(`${name} end`);
        return name;
      });
    const results = await Promise.all([job('a', 'a1', 20), job('a', 'a2', 1), job('b', 'b1', 5)]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a1 end')).toBeLessThan(log.indexOf('a2 start'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('releases the key when the work fails, and gives up waiting after the bound', async () => {
    const lock = createKeyedLock(30);
    await expect(lock.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('k', async () => 'next')).resolves.toBe('next');
    const slow = lock.run('k', () => sleep(100).then(() => 'slow'));
    await expect(lock.run('k', async () => 'late')).rejects.toMatchObject({
      name: 'DependencyUnavailableError',
    });
    await expect(slow).resolves.toBe('slow');
  });
});
