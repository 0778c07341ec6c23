import type { JetStreamManager } from '@nats-io/jetstream';
import { waitFor } from '@tap/testkit';

/** Waits until a durable consumer holds nothing: every stored message was handled and acked. */
export async function consumerSettled(jsm: JetStreamManager, stream: string, durable: string): Promise<void> {
  await waitFor(
    `consumer ${durable} to ack everything`,
    async () => {
      const info = await jsm.consumers.info(stream, durable).catch(() => null);
      return info !== null && info.num_pending === 0 && info.num_ack_pending === 0;
    },
    { timeoutMs: 20_000 },
  );
}
