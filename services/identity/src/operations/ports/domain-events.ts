import type { DomainEvent } from '@tap/contracts';

/**
 * Stores an event in the domain stream (the event id is the JetStream message id); rejects when
 * the stream did not confirm it. `refused` tells a contract refusal (it never will pass) apart.
 */
export interface DomainEventSink {
  publish(event: DomainEvent): Promise<unknown>;
  isRefused(error: unknown): boolean;
}
