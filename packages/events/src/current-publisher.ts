import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import type { ProductEvent } from '@tap/contracts';
import { DependencyUnavailableError } from '@tap/errors';
import { createEventPublisher, type PublishResult } from './publisher.js';

/**
 * Publishes product events over whichever NATS connection `connection` gives at the time of each
 * publish (a service's connection comes and goes with NATS); none yet is DependencyUnavailableError,
 * which the caller's retry or outbox handles.
 */
export function currentConnectionPublisher(options: {
  readonly connection: () => NatsConnection | undefined;
  readonly subjectPrefix: string;
}): (event: ProductEvent) => Promise<PublishResult> {
  return async (event) => {
    const nc = options.connection();
    if (!nc) throw new DependencyUnavailableError('nats is not connected yet');
    return createEventPublisher(jetstream(nc), { subjectPrefix: options.subjectPrefix }).publish(event);
  };
}
