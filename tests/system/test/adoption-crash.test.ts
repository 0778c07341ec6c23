import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { startProcessStack, type ProcessStack } from './support/process-stack.js';
import { waitFor } from './support/wait-for.js';

/*
 * Distinct products counted exactly once by both consumers although each is killed (SIGKILL)
 * in the middle of 20,000 events and replaced (issue #23): adoption's item markers and
 * entitlements' usage counters must neither lose nor double an event across the crash and the
 * redelivery that follows it. Every event is also published a second time with its own id (a
 * producer retry), which the stream's duplicate window and the consumers' guards absorb.
 */
const EVENTS = 20_000;
const IN_FLIGHT = 64;

describe('distinct products when adoption and entitlements are killed mid-stream', () => {
  let stack: ProcessStack;
  beforeAll(async () => {
    stack = await startProcessStack('adoption_crash');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  /** The answer's data, or its status and error code when it is not a 200 (a service still starting). */
  const get = async <T>(bearer: string, path: string): Promise<T | { status: number; body: string }> => {
    const response = await fetch(`${stack.base}/api/v1${path}`, {
      headers: { authorization: bearer },
    });
    if (response.status !== 200)
      return { status: response.status, body: (await response.text()).slice(0, 200) };
    return ((await response.json()) as { data: T }).data;
  };

  it('ends with the products sent, in both services', async () => {
    const { tenantId, bearer } = await stack.createTenant('Crash Supplies');
    await stack.setTier(tenantId, 'ENTERPRISE');
    const ids = Array.from({ length: EVENTS }, () => randomUUID());
    const event = (n: number): ProductEvent => ({
      id: ids[n]!,
      type: 'product.created',
      tenantId,
      occurredAt: new Date(Date.now() - (EVENTS - n)).toISOString(),
      subject: { productId: `product-${n}` },
      data: {},
    });
    const kills = [
      { at: 6_000, victim: 'adoption' as const },
      { at: 13_000, victim: 'entitlements' as const },
    ];
    const replacements: Promise<unknown>[] = [];
    for (let from = 0; from < EVENTS; from += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, EVENTS - from) }, (_, i) => event(from + i));
      await Promise.all(batch.flatMap((e) => [stack.publish(e), stack.publish(e)]));
      for (const { victim } of kills.filter((k) => k.at >= from && k.at < from + IN_FLIGHT)) {
        stack.process(victim).child.kill('SIGKILL');
        // A new process takes over while the events keep coming (roll starts it on the free slot).
        replacements.push(
          stack
            .process(victim)
            .exited()
            .then(() => stack.roll(victim)),
        );
      }
    }
    await Promise.all(replacements);

    const products = async () => {
      const coverage = await get<{ cells: { key: string; count: number }[] }>(
        bearer,
        '/tenant/adoption/coverage',
      );
      const usage = await get<{ limits: Record<string, { current: number }> }>(bearer, '/entitlements/usage');
      return {
        adoption: 'cells' in coverage ? coverage.cells.find((c) => c.key === 'PRODUCTS')?.count : coverage,
        entitlements: 'limits' in usage ? usage.limits['MAX_ACTIVE_PRODUCTS']?.current : usage,
      };
    };
    const settled = await waitFor(
      async () => {
        const seen = await products();
        return seen.adoption === EVENTS && seen.entitlements === EVENTS ? seen : undefined;
      },
      180_000,
      500,
    ).catch(async () => products());
    expect(settled).toEqual({ adoption: EVENTS, entitlements: EVENTS });
    // And it stays there: nothing is applied twice after the counts were reached.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await products()).toEqual({ adoption: EVENTS, entitlements: EVENTS });
  }, 400_000);
});
