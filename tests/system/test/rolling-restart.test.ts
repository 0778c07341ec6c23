import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProductEvent } from '@tap/contracts';
import { readSample } from '@tap/telemetry';
import { startBoundedLoad } from './support/bounded-load.js';
import {
  GRPC_SERVICES,
  startProcessStack,
  type ProcessStack,
  type Roll,
  type ServiceName,
} from './support/process-stack.js';
import { adoptionFacts, productCounts, startPublishing } from './support/published-events.js';
import { waitForCount } from './support/wait-for.js';

const LOAD_PATHS = ['/api/v1/tenant', '/api/v1/tenant/adoption/state', '/api/v1/entitlements/usage'];
/** Events published while the services roll, one every EVENT_EVERY_MS, at most MAX_EVENTS. */
const MAX_EVENTS = 500;
const EVENT_EVERY_MS = 50;
/** Every gRPC service, then the gateway behind its proxy. */
const ROLL_ORDER: readonly ServiceName[] = [...GRPC_SERVICES, 'gateway'];

describe('a rolling restart of every service under load', () => {
  let stack: ProcessStack;
  beforeAll(async () => {
    stack = await startProcessStack('rolling');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  it('answers every request 200 and loses or doubles no event', async () => {
    const { bearer } = await stack.createTenant('Rolling Ltd');
    const load = startBoundedLoad({
      base: stack.base,
      paths: LOAD_PATHS,
      headers: { authorization: bearer },
      concurrency: 4,
      maxRequests: 20_000,
      maxMs: 90_000,
    });
    const publishing = startPublishing(stack, { maxEvents: MAX_EVENTS, everyMs: EVENT_EVERY_MS });

    const rolls: Roll[] = [];
    let published: readonly ProductEvent[] = [];
    try {
      await sleep(1_000);
      for (const name of ROLL_ORDER) {
        rolls.push(await stack.roll(name));
        // Let the load run against the new process alone before the next service rolls.
        await sleep(1_000);
      }
    } finally {
      published = await publishing.stop();
    }
    const outcomes = await load.stop();

    const sentBetween = (from: number, to: number) =>
      outcomes.filter((o) => o.at - o.ms >= from && o.at - o.ms <= to).length;
    process.stdout.write(
      `rolling restart: ${outcomes.length} requests, ${published.length} events; ` +
        rolls
          .map(
            (r) =>
              `${r.service} ready ${r.readyAt - r.startedAt} ms, stop ${r.exitedAt - r.signalledAt} ms, ` +
              `${sentBetween(r.startedAt, r.exitedAt)} requests during the roll`,
          )
          .join('; ') +
        `; slowest ${Math.max(...outcomes.map((o) => o.ms))} ms; not 200: ${outcomes.filter((o) => o.status !== 200).length}\n`,
    );
    // A process that did not stop cleanly (exit 1: its shutdown outlasted the grace) says why.
    for (const roll of rolls.filter((r) => r.code !== 0))
      process.stdout.write(
        `${roll.service} exited ${roll.code}; its logs:\n${stack.logs(roll.service).slice(-20_000)}\n`,
      );
    expect(rolls.map((r) => [r.service, r.code])).toEqual(ROLL_ORDER.map((name) => [name, 0]));
    for (const roll of rolls) expect(roll.exitedAt - roll.signalledAt).toBeLessThan(5_000);
    expect(outcomes.length).toBeGreaterThan(100);
    // Zero failed requests: no 503, no 502 from the proxy, no network error.
    if (outcomes.some((o) => o.status !== 200))
      process.stdout.write(`gateway logs:\n${stack.logs('gateway')}\n`);
    const rolling = (sentAt: number) =>
      rolls.find((r) => sentAt >= r.startedAt && sentAt <= r.exitedAt)?.service ?? 'between rolls';
    expect(
      outcomes.filter((o) => o.status !== 200).map((o) => ({ ...o, during: rolling(o.at - o.ms) })),
    ).toEqual([]);
    // The load really ran through each roll, from the new process's start to the old one's exit.
    expect(rolls.map((r) => [r.service, sentBetween(r.startedAt, r.exitedAt) > 0])).toEqual(
      ROLL_ORDER.map((name) => [name, true]),
    );

    // Every event applied exactly once: one fact in adoption, one product in entitlements.
    const ids = published.map((event) => event.id).sort();
    const waitFrom = Date.now();
    // Progress-driven waits: a loaded machine applies the backlog slowly but steadily; a lost or
    // stuck event stops the count (idle longer than the 30 s ack wait, so a late redelivery still
    // counts as delivered, and the time it took is printed below).
    const settle = { idleMs: 40_000, maxMs: 120_000 };
    const facts = await waitForCount(
      async () => {
        const found = await adoptionFacts(stack, published);
        return { count: found.length, value: found };
      },
      ids.length,
      settle,
    );
    expect([...facts].sort()).toEqual(ids);
    const counts = await waitForCount(
      async () => {
        const found = await productCounts(stack, published);
        return { count: Object.keys(found).length, value: found };
      },
      ids.length,
      settle,
    );
    expect(counts).toEqual(Object.fromEntries(published.map((event) => [event.tenantId, 1])));
    const redelivered = async (name: 'adoption' | 'entitlements') =>
      readSample(await stack.text(name, '/metrics'), 'events_consumer_redeliveries_total');
    process.stdout.write(
      `rolling restart: all events applied ${Date.now() - waitFrom} ms after the load; redeliveries since the last start: ` +
        `adoption ${await redelivered('adoption')}, entitlements ${await redelivered('entitlements')}\n`,
    );
  }, 300_000);
});
