import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { infraUrls, testNamespace } from '@tap/testkit';
import { ensureDeadLetterStream, ensureEventStream } from '../../src/index.js';

/** One test file's connection, and its own event and dead-letter streams and prefixes. */
export interface EventsTestBed {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly streamName: string;
  readonly subjectPrefix: string;
  readonly deadLetterStream: string;
  readonly deadLetterPrefix: string;
  close(): Promise<void>;
}

/**
 * Connects to the run's NATS and creates streams no other test file shares, so suites run in
 * parallel; close() deletes them again.
 */
export async function openTestBed(label: string): Promise<EventsTestBed> {
  const ns = testNamespace(label);
  const nc = await connect({ servers: infraUrls().natsUrl, name: ns });
  const js = jetstream(nc);
  const jsm = await jetstreamManager(nc);
  const bed = {
    nc,
    js,
    jsm,
    streamName: ns,
    subjectPrefix: ns,
    deadLetterStream: `${ns}_dlq`,
    deadLetterPrefix: `${ns}_deadletter`,
  };
  await ensureEventStream(jsm, {
    streamName: bed.streamName,
    subjectPrefix: bed.subjectPrefix,
    duplicateWindowMs: 60_000,
  });
  await ensureDeadLetterStream(jsm, {
    streamName: bed.deadLetterStream,
    subjectPrefix: bed.deadLetterPrefix,
  });
  return {
    ...bed,
    async close() {
      await Promise.allSettled([
        jsm.streams.delete(bed.streamName),
        jsm.streams.delete(bed.deadLetterStream),
      ]);
      await nc.drain();
    },
  };
}
