import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { createTenantWriteLock } from './tenant-write-lock.js';

describe('createTenantWriteLock', () => {
  it('runs one tenant’s writes one at a time, in arrival order', async () => {
    const lock = createTenantWriteLock();
    const seen: string[] = [];
    const write = (name: string, ms: number) =>
      lock.run('t1', async () => {
        seen.push(`start ${name}`);
        await sleep(ms);
        seen.push(`end ${name}`);
      });
    await Promise.all([write('a', 20), write('b', 1), write('c', 5)]);
    expect(seen).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets different tenants write at the same time', async () => {
    const lock = createTenantWriteLock();
    let inside = 0;
    let most = 0;
    const write = (tenantId: string) =>
      lock.run(tenantId, async () => {
        inside += 1;
        most = Math.max(most, inside);
        await sleep(10);
        inside -= 1;
      });
    await Promise.all([write('t1'), write('t2'), write('t3')]);
    expect(most).toBe(3);
  });

  it('keeps going after a failed write', async () => {
    const lock = createTenantWriteLock();
    await expect(lock.run('t1', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(lock.run('t1', async () => 'next')).resolves.toBe('next');
  });

  it('gives up waiting after the bound with RESERVATION_CONTENDED, without running the write', async () => {
    const lock = createTenantWriteLock(20);
    let ran = false;
    const slow = lock.run('t1', () => sleep(100));
    const waiting = lock.run('t1', async () => {
      ran = true;
    });
    await expect(waiting).rejects.toMatchObject({ code: 'RESERVATION_CONTENDED', kind: 'UNAVAILABLE' });
    await slow;
    expect(ran).toBe(false);
    await expect(lock.run('t1', async () => 'free again')).resolves.toBe('free again');
  });
});
