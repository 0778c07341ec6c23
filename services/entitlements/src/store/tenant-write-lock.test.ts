import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from '@jest/globals';
import { createTenantWriteLock } from './tenant-write-lock.js';

describe('createTenantWriteLock', () => {
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
  });
});
