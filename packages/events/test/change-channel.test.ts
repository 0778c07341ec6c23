import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { infraUrls, testNamespace, waitFor } from '@tap/testkit';
import { createChangeChannel, readModelNoticeSubject } from '../src/index.js';

let a: NatsConnection;
let b: NatsConnection;
beforeAll(async () => {
  a = await connect({ servers: infraUrls().natsUrl });
  b = await connect({ servers: infraUrls().natsUrl });
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

describe('a read-model change channel between two replicas', () => {
  it('applies a write here at once and on the other replica once started, and stops telling after stop', async () => {
    const subject = readModelNoticeSubject(testNamespace('change channel'), 'svc');
    const seenA: Array<[string, number | undefined]> = [];
    const seenB: Array<[string, number | undefined]> = [];
    const replicaA = createChangeChannel((tenantId, version) => seenA.push([tenantId, version]));
    const replicaB = createChangeChannel((tenantId, version) => seenB.push([tenantId, version]));

    replicaA.changed('t0', 1); // before start: this replica only
    expect(seenA).toEqual([['t0', 1]]);

    const stopA = replicaA.start(a, subject);
    const stopB = replicaB.start(b, subject);
    await Promise.all([a.flush(), b.flush()]);
    replicaA.changed('t1', 3);
    replicaA.changed('t2');
    await waitFor('B told of both writes', async () => seenB.length === 2, { timeoutMs: 5_000 });
    expect(seenB).toEqual([
      ['t1', 3],
      ['t2', undefined],
    ]);
    expect(seenA).toContainEqual(['t1', 3]);
    expect(seenB).not.toContainEqual(['t0', 1]);

    stopB();
    await b.flush();
    replicaA.changed('t3', 4);
    await a.flush();
    stopA();
    // A hears its own notice on the subject (after its direct call): once it has, B would have too.
    await waitFor('A heard its own notice', async () => seenA.filter(([t]) => t === 't3').length === 2, {
      timeoutMs: 5_000,
    });
    expect(seenB.map(([t]) => t)).not.toContain('t3');
  });

  it('says it hears the notices once the server has the subscription, and not after a close or a stop', async () => {
    const subject = readModelNoticeSubject(testNamespace('change channel hearing'), 'svc');
    const c = await connect({ servers: infraUrls().natsUrl });
    const heardC: boolean[] = [];
    const heardA: boolean[] = [];
    const stopC = createChangeChannel(() => undefined).start(c, subject, (listening) =>
      heardC.push(listening),
    );
    const stopA = createChangeChannel(() => undefined).start(a, subject, (listening) =>
      heardA.push(listening),
    );
    await waitFor('both hear', async () => heardC.at(-1) === true && heardA.at(-1) === true, {
      timeoutMs: 5_000,
    });
    await c.close();
    await waitFor('a closed connection hears nothing', async () => heardC.at(-1) === false, {
      timeoutMs: 5_000,
    });
    stopC();
    stopA();
    expect(heardA.at(-1)).toBe(false);
  });
});
