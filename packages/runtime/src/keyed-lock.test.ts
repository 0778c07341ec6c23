import { setTimeout as sleep } from 'node:timers/promises';
import { DependencyUnavailableError } from '@tap/errors';
import { describe, expect, it } from '@jest/globals';
import { createKeyedLock } from './keyed-lock.js';

const busy = (key: string) => new Error(`busy ${key}`);

describe('createKeyedLock', () => {
  it('runs the work of one key one at a time, in arrival order', async () => {
    const lock = createKeyedLock({ onTimeout: busy });
    const seen: string[] = [];
    const write = (name: string, ms: number) =>
      lock.run('t1', async () => {
        seen.push(`start ${name}`);
        await sleep(ms);
        seen.push(`end ${name}`);
        return name;
      });
    await expect(Promise.all([write('a', 20), write('b', 1), write('c', 5)])).resolves.toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(seen).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different keys run at the same time', async () => {
    const lock = createKeyedLock({ onTimeout: busy });
    let inside = 0;
    let most = 0;
    const write = (key: string) =>
      lock.run(key, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(10);
        inside -= 1;
      });
    await Promise.all([write('t1'), write('t2'), write('t3')]);
    expect(most).toBe(3);
  });

  it('keeps going after a failed run', async () => {
    const lock = createKeyedLock({ onTimeout: busy });
    await expect(lock.run('t1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('t1', async () => 'next')).resolves.toBe('next');
  });

  it('gives up waiting after the bound with the caller’s error, without running the work', async () => {
    const lock = createKeyedLock({ maxWaitMs: 20, onTimeout: busy });
    let ran = false;
    const slow = lock.run('t1', () => sleep(100));
    const waiting = lock.run('t1', async () => {
      ran = true;
    });
    await expect(waiting).rejects.toThrow('busy t1');
    await slow;
    expect(ran).toBe(false);
    await expect(lock.run('t1', async () => 'free again')).resolves.toBe('free again');
  });
});

describe('createKeyedLock without an onTimeout', () => {
  it('gives up with a DependencyUnavailableError naming only the key’s first segment', async () => {
    const lock = createKeyedLock({ maxWaitMs: 20 });
    const slow = lock.run('session:secret-id', () => sleep(100));
    const late = lock.run('session:secret-id', async () => 'late');
    await expect(late).rejects.toBeInstanceOf(DependencyUnavailableError);
    await expect(late).rejects.toThrow(/^busy: session$/);
    await slow;
  });
});
