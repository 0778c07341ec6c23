import type { JetStreamManager } from '@nats-io/jetstream';
import { waitForDrain } from '@tap/testkit';

/**
 * Waits until a durable consumer holds nothing: every stored message was handled and acked.
 * Driven by progress (fails when the backlog stops shrinking), not by a budget a busy machine
 * can exceed.
 */
export async function consumerSettled(jsm: JetStreamManager, stream: string, durable: string): Promise<void> {
  await waitForDrain(`consumer ${durable} to ack everything`, async () => {
    const info = await jsm.consumers.info(stream, durable).catch(() => null);
    return info === null ? Number.POSITIVE_INFINITY : info.num_pending + info.num_ack_pending;
  });
}

/**
 * Lets `consumer` settle and stops it, then replays the whole stream as an operator would: the
 * durable deleted and created again from the stream's start by `start`, settled and stopped too.
 */
export async function settleThenReplay(
  jsm: JetStreamManager,
  stream: string,
  durable: string,
  consumer: { stop(): Promise<void> },
  start: () => Promise<{ stop(): Promise<void> }>,
): Promise<void> {
  await consumerSettled(jsm, stream, durable);
  await consumer.stop();
  await jsm.consumers.delete(stream, durable);
  const replaying = await start();
  await consumerSettled(jsm, stream, durable);
  await replaying.stop();
}
