import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from '@nats-io/transport-node';
import { StorageType, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { nanos, type NatsConnection } from '@nats-io/nats-core';
import { infraUrls, testNamespace } from '@tap/testkit';
import { ensureEventStream, eventErrors } from '../src/index.js';

describe('ensureEventStream', () => {
  const ns = testNamespace('event_stream');
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const created: string[] = [];
  const names = (suffix: string): { streamName: string; subjectPrefix: string } => {
    const streamName = `${ns}_${suffix}`;
    created.push(streamName);
    return { streamName, subjectPrefix: streamName };
  };

  beforeAll(async () => {
    nc = await connect({ servers: infraUrls().natsUrl });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await Promise.allSettled(created.map((name) => jsm.streams.delete(name)));
    await nc?.drain();
  });

  it('creates one file-backed, limits-retained stream when several replicas ensure it at once', async () => {
    const options = { ...names('race'), duplicateWindowMs: 30_000, maxAgeMs: 3_600_000 };
    const infos = await Promise.all([1, 2, 3].map(() => ensureEventStream(jsm, options)));
    expect(new Set(infos.map((info) => info.created.toString())).size).toBe(1);
    const { config } = await jsm.streams.info(options.streamName);
    expect(config.subjects).toEqual([`${options.subjectPrefix}.>`]);
    expect(config.storage).toBe('file');
    expect(config.retention).toBe('limits');
    expect(config.duplicate_window).toBe(nanos(30_000));
    expect(config.max_age).toBe(nanos(3_600_000));
  });

  it('brings an existing stream to a new duplicate window and retention instead of failing', async () => {
    const base = names('update');
    await ensureEventStream(jsm, { ...base, duplicateWindowMs: 30_000 });
    await ensureEventStream(jsm, { ...base, duplicateWindowMs: 60_000, maxAgeMs: 600_000 });
    const { config } = await jsm.streams.info(base.streamName);
    expect(config.duplicate_window).toBe(nanos(60_000));
    expect(config.max_age).toBe(nanos(600_000));
  });

  it('refuses to take over a stream whose storage cannot change in place', async () => {
    const base = names('memory');
    await jsm.streams.add({
      name: base.streamName,
      subjects: [`${base.subjectPrefix}.>`],
      storage: StorageType.Memory,
    });
    const attempt = ensureEventStream(jsm, { ...base, duplicateWindowMs: 30_000 });
    await expect(attempt).rejects.toMatchObject({ code: 'EVENT_STREAM_MISCONFIGURED' });
  });

  it('refuses a duplicate window longer than the stream keeps events', async () => {
    const attempt = ensureEventStream(jsm, {
      ...names('window'),
      duplicateWindowMs: 60_000,
      maxAgeMs: 1_000,
    });
    const error: unknown = await attempt.catch((e: unknown) => e);
    expect(eventErrors.is(error, 'EVENT_STREAM_MISCONFIGURED')).toBe(true);
    await expect(jsm.streams.info(`${ns}_window`)).rejects.toThrow();
  });
});
