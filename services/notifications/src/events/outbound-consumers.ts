import type { NatsConnection } from '@nats-io/nats-core';
import { parseDomainEvent, type DomainEvent } from '@tap/contracts';
import {
  eventKindFilter,
  PermanentEventError,
  startDomainEventConsumer,
  startDurableConsumer,
  type DurableConsumer,
} from '@tap/events';
import type { JetStreamClient, JetStreamManager } from '@nats-io/jetstream';
import type { ConsumerCounts, Logger } from '@tap/telemetry';

export interface OutboundStreams {
  /** The product stream (EVENTS), where adoption publishes milestone.completed. */
  readonly product: { readonly streamName: string; readonly subjectPrefix: string };
  /** The domain stream (DOMAIN_EVENTS). */
  readonly domain: { readonly streamName: string; readonly subjectPrefix: string };
  /** Durable name; the product stream's consumer is `<name>-milestones`. */
  readonly consumerName: string;
}

/**
 * Starts the two durable consumers that feed the service: every domain event, and the
 * product stream's milestone.completed (checked against the domain contract too, since that is
 * what integrators are promised). Each acks after `apply` has written.
 */
export async function startOutboundConsumers(
  nc: NatsConnection,
  js: JetStreamClient,
  jsm: JetStreamManager,
  options: OutboundStreams & { apply: (event: DomainEvent) => Promise<unknown>; logger: Logger },
): Promise<{ stop(): Promise<void>; stats(): ConsumerCounts }> {
  const { logger } = options;
  const domain = await startDomainEventConsumer(nc, {
    streamName: options.domain.streamName,
    durableName: options.consumerName,
    subjectPrefix: options.domain.subjectPrefix,
    handler: async (event) => void (await options.apply(event)),
    onInvalid: (report) => logger.warn(report, 'invalid domain event'),
    onError: (error, report) => logger.error({ err: error, ...report }, 'domain event not applied'),
  });
  let milestones: DurableConsumer;
  try {
    milestones = await startDurableConsumer(js, jsm, {
      streamName: options.product.streamName,
      durableName: `${options.consumerName}-milestones`,
      subjectPrefix: options.product.subjectPrefix,
      filterSubjects: [eventKindFilter('milestone.completed', options.product.subjectPrefix)],
      handler: async (event) => {
        const parsed = parseDomainEvent(event);
        if (!parsed.ok)
          throw new PermanentEventError('not a valid outbound milestone.completed', {
            details: { errors: parsed.errors },
          });
        await options.apply(parsed.event);
      },
      onInvalid: (report) => logger.warn(report, 'invalid product event'),
      onError: (error, report) => logger.error({ err: error, ...report }, 'milestone event not applied'),
    });
  } catch (error) {
    await domain.stop();
    throw error;
  }
  return {
    async stop() {
      await Promise.all([domain.stop(), milestones.stop()]);
    },
    stats() {
      const d = domain.stats();
      const m = milestones.stats();
      return {
        delivered: m.delivered + d.processed + d.failed + d.invalid,
        applied: m.applied + d.processed,
        invalid: m.invalid + d.invalid,
        failed: m.failed + d.failed,
        redelivered: m.redelivered,
        deadLettered: m.deadLettered,
      };
    },
  };
}
