import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry.js';
import { METRIC_NAMES } from './series.js';

/** The counters of a durable consumer (structurally @tap/events' `ConsumerStats`). */
export interface ConsumerCounts {
  readonly delivered: number;
  readonly applied: number;
  readonly invalid: number;
  readonly failed: number;
  readonly redelivered: number;
  readonly deadLettered: number;
}

/** What a scrape reads of one consumer. */
export interface WatchedConsumer {
  stats(): ConsumerCounts;
  /** Messages in the stream not yet delivered to the consumer (JetStream `num_pending`). */
  pending(): Promise<number>;
}

/** How long a scrape waits for the consumer info before reporting the last value. */
export const PENDING_SAMPLE_TIMEOUT_MS = 1_000;

const watched = new Map<string, WatchedConsumer>();
const lastPending = new Map<string, number>();
let registered = false;

const COUNTERS: ReadonlyArray<[string, keyof ConsumerCounts, string]> = [
  [METRIC_NAMES.consumerDelivered, 'delivered', 'Messages delivered to the consumer, redeliveries included'],
  [METRIC_NAMES.consumerApplied, 'applied', 'Deliveries whose handler succeeded (then acked)'],
  [METRIC_NAMES.consumerInvalid, 'invalid', 'Deliveries that were not a valid event'],
  [METRIC_NAMES.consumerFailed, 'failed', 'Deliveries whose handler threw'],
  [METRIC_NAMES.consumerRedelivered, 'redelivered', 'Deliveries the server marked as redelivered'],
  [METRIC_NAMES.consumerDeadLettered, 'deadLettered', 'Messages stored on the dead-letter subject'],
];

async function samplePending(name: string, consumer: WatchedConsumer): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PENDING_SAMPLE_TIMEOUT_MS);
  });
  try {
    const value = await Promise.race([consumer.pending(), timeout]);
    if (value !== undefined) lastPending.set(name, value);
    return value ?? lastPending.get(name);
  } catch {
    return lastPending.get(name);
  } finally {
    clearTimeout(timer);
  }
}

function registerSeries(): void {
  if (registered) return;
  registered = true;
  const registers = [metricsRegistry()];
  for (const [name, key, help] of COUNTERS) {
    new Counter({
      name,
      help,
      labelNames: ['consumer'],
      registers,
      collect() {
        this.reset();
        for (const [consumer, source] of watched) this.inc({ consumer }, source.stats()[key]);
      },
    });
  }
  new Gauge({
    name: METRIC_NAMES.consumerPending,
    help: 'Messages in the stream not yet delivered to the consumer (lag), sampled at scrape',
    labelNames: ['consumer'],
    registers,
    async collect() {
      for (const [consumer, source] of watched) {
        const value = await samplePending(consumer, source);
        if (value !== undefined) this.set({ consumer }, value);
      }
    },
  });
}

/**
 * Exposes a durable consumer's counters and lag under `consumer` (its durable name). The
 * counters are read at scrape from `stats()`; the lag is asked of JetStream at scrape, with a
 * {@link PENDING_SAMPLE_TIMEOUT_MS} bound (the last value stands in when it does not answer).
 */
export function watchConsumer(name: string, consumer: WatchedConsumer): void {
  registerSeries();
  watched.set(name, consumer);
}
