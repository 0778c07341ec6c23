import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ProductEvent } from '@tap/contracts';
import { DEFAULT_GRPC_DEADLINE_MS } from '@tap/grpc-kit';
import { readSample } from '@tap/telemetry';
import { startBoundedLoad } from './support/bounded-load.js';
import { GRPC_SERVICES, startProcessStack, type ProcessStack } from './support/process-stack.js';
import { waitFor } from './support/wait-for.js';

const LOAD_PATHS = ['/api/v1/tenant', '/api/v1/tenant/adoption/state', '/api/v1/entitlements/usage'];
/** Events published while the services roll, one every EVENT_EVERY_MS, at most MAX_EVENTS. */
const MAX_EVENTS = 400;
const EVENT_EVERY_MS = 40;

describe('a rolling restart of every gRPC service under load', () => {
  let stack: ProcessStack;
  beforeAll(async () => {
    stack = await startProcessStack('rolling');
  }, 90_000);
  afterAll(async () => {
    await stack?.stop();
  }, 20_000);

  it('answers every request 200 (or, past the deadline, 503) and loses or doubles no event', async () => {
    const { tenantId, bearer } = await stack.createTenant('Rolling Ltd');
    const load = startBoundedLoad({
      base: stack.base,
      paths: LOAD_PATHS,
      headers: { authorization: bearer },
      concurrency: 4,
      maxRequests: 20_000,
      maxMs: 90_000,
    });

    const published: string[] = [];
    let publishing = true;
    const publishLoop = (async () => {
      while (publishing && published.length < MAX_EVENTS) {
        const event: ProductEvent = {
          id: randomUUID(),
          type: 'product.created',
          tenantId,
          occurredAt: new Date().toISOString(),
          subject: { productId: randomUUID() },
          data: {},
        };
        await stack.publish(event);
        published.push(event.id);
        await new Promise((resolve) => setTimeout(resolve, EVENT_EVERY_MS));
      }
    })();

    const restarts: Array<{ service: string; code: number; stopMs: number; from: number; to: number }> = [];
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const name of GRPC_SERVICES) {
        const old = stack.process(name);
        const signalledAt = Date.now();
        old.child.kill('SIGTERM');
        const { code, at } = await old.exited();
        await stack.start(name);
        restarts.push({ service: name, code, stopMs: at - signalledAt, from: signalledAt, to: Date.now() });
        // Let the load run against the new process before the next one rolls.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
    } finally {
      publishing = false;
    }
    await publishLoop;
    const outcomes = await load.stop();

    process.stdout.write(
      `rolling restart: ${outcomes.length} requests, ${published.length} events, ` +
        `${restarts.map((r) => `${r.service} stop ${r.stopMs} ms, away ${r.to - r.from} ms`).join('; ')}; ` +
        `slowest ${Math.max(...outcomes.map((o) => o.ms))} ms; 503 after the deadline: ${outcomes.filter((o) => o.status !== 200).length}\n`,
    );
    expect(restarts.map((r) => [r.service, r.code])).toEqual(GRPC_SERVICES.map((name) => [name, 0]));
    for (const restart of restarts) expect(restart.stopMs).toBeLessThan(5_000);
    expect(outcomes.length).toBeGreaterThan(100);
    // Never a 500, a network error or any other answer than 200 or 503.
    const failed = outcomes.filter((o) => o.status !== 200);
    expect(failed.filter((o) => o.status !== 503)).toEqual([]);
    // KNOWN GAP (docs/operations.md, "Rolling restarts"): the goal is zero failures, and it holds
    // when a process comes back on its port within the gateway's gRPC deadline (reads wait for
    // the channel and retry UNAVAILABLE). On a loaded machine a restart can take longer (up to
    // ~2.7 s measured); the reads that waited through it then end in 503 + Retry-After after the
    // full deadline. So a 503 is tolerated only in that case: sent while a service was away, and
    // answered after waiting out the deadline, never failed fast.
    for (const outcome of failed) {
      const sentAt = outcome.at - outcome.ms;
      expect({
        ...outcome,
        sentWhileAway: restarts.some((r) => sentAt >= r.from && sentAt <= r.to),
        waitedOutDeadline: outcome.ms >= DEFAULT_GRPC_DEADLINE_MS - 100,
      }).toEqual({
        ...outcome,
        sentWhileAway: true,
        waitedOutDeadline: true,
      });
    }
    // The load really ran through each roll: requests were sent while the service was away.
    for (const restart of restarts) {
      const sent = outcomes.filter((o) => o.at - o.ms >= restart.from && o.at - o.ms <= restart.to).length;
      expect({ service: restart.service, sentWhileAway: sent > 0 }).toEqual({
        service: restart.service,
        sentWhileAway: true,
      });
    }

    // Every event applied exactly once: adoption's facts and entitlements' counter.
    const ids = new Set(published);
    const waitFrom = Date.now();
    const facts = await waitFor(
      async () => {
        const doc = await stack.mongo
          .db(stack.databases.adoption)
          .collection<{ _id: string; facts: Array<{ id: string }> }>('aggregates')
          .findOne({ _id: tenantId });
        const ours = (doc?.facts ?? []).filter((fact) => ids.has(fact.id));
        return ours.length >= ids.size ? ours : undefined;
      },
      30_000,
      200,
    );
    expect(facts.length).toBe(ids.size);
    expect(new Set(facts.map((fact) => fact.id)).size).toBe(ids.size);
    const products = await waitFor(
      async () => {
        const response = await fetch(`${stack.base}/api/v1/entitlements/usage`, {
          headers: { authorization: bearer },
          signal: AbortSignal.timeout(5_000),
        });
        const body = (await response.json()) as { data?: { limits?: Record<string, { current: number }> } };
        const current = body.data?.limits?.['MAX_ACTIVE_PRODUCTS']?.current ?? 0;
        return current >= ids.size ? current : undefined;
      },
      30_000,
      200,
    );
    expect(products).toBe(ids.size);
    const redelivered = async (name: 'adoption' | 'entitlements') =>
      readSample(await stack.text(name, '/metrics'), 'events_consumer_redeliveries_total');
    process.stdout.write(
      `rolling restart: all events applied ${Date.now() - waitFrom} ms after the load; redeliveries since the last start: ` +
        `adoption ${await redelivered('adoption')}, entitlements ${await redelivered('entitlements')}\n`,
    );
  }, 150_000);
});
