import type { JobLogger } from '@tap/runtime';
import type { Delivery } from '../operations/ports.js';

/** A running delivery worker. */
export interface DeliveryWorker {
  /** Stops claiming and waits for the attempts in flight to finish. */
  stop(): Promise<void>;
  /** Attempts in flight now, by endpoint (tests, metrics). */
  inFlight(): ReadonlyMap<string, number>;
}

export interface DeliveryWorkerOptions {
  /** Claims up to `max` due deliveries, each endpoint within its cap given what is in flight. */
  readonly claim: (max: number, inFlight: ReadonlyMap<string, number>) => Promise<Delivery[]>;
  readonly deliver: (delivery: Delivery) => Promise<unknown>;
  /** Attempts in flight at once in this process. */
  readonly maxInFlight: number;
  /** Attempts in flight at once for one endpoint: a slow endpoint holds its own slots only. */
  readonly perEndpoint: number;
  /** How often the queue is looked at when nothing is running. */
  readonly pollIntervalMs: number;
  readonly logger: JobLogger;
}

/**
 * Drains the durable delivery queue: claims due deliveries while slots are free, runs each
 * attempt without waiting for the others, and claims again whenever one ends. An endpoint at its
 * cap is left out of the claim, so its backlog waits while other endpoints' deliveries go on.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const perEndpoint = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let pumping = false;
  let again = false;

  const run = (delivery: Delivery): void => {
    perEndpoint.set(delivery.endpointId, (perEndpoint.get(delivery.endpointId) ?? 0) + 1);
    const task = options
      .deliver(delivery)
      .then(
        () => undefined,
        (error: unknown) =>
          options.logger.warn({ err: error, deliveryId: delivery.id }, 'webhook attempt not recorded'),
      )
      .finally(() => {
        const left = (perEndpoint.get(delivery.endpointId) ?? 1) - 1;
        if (left > 0) perEndpoint.set(delivery.endpointId, left);
        else perEndpoint.delete(delivery.endpointId);
        running.delete(task);
        void pump();
      });
    running.add(task);
  };

  const pump = async (): Promise<void> => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    try {
      do {
        again = false;
        while (!stopped && running.size < options.maxInFlight) {
          const batch = await options.claim(options.maxInFlight - running.size, perEndpoint);
          if (batch.length === 0) break;
          for (const delivery of batch) run(delivery);
        }
      } while (again && !stopped);
    } catch (error) {
      options.logger.warn({ err: error }, 'delivery queue not readable');
    } finally {
      pumping = false;
    }
  };

  const timer = setInterval(() => void pump(), options.pollIntervalMs);
  timer.unref();
  void pump();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await Promise.all([...running]);
    },
    inFlight: () => new Map(perEndpoint),
  };
}
