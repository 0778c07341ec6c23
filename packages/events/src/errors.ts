import { DomainError, defineErrors } from '@tap/errors';

/** The events package's error catalogue. Callers branch on `code`. */
export const eventErrors = defineErrors({
  EVENT_INVALID: { kind: 'INVALID_ARGUMENT', message: 'The event does not match the product-event contract' },
  EVENT_PUBLISH_FAILED: { kind: 'UNAVAILABLE', message: 'The event could not be stored in the event stream' },
  EVENT_STREAM_MISCONFIGURED: {
    kind: 'FAILED_PRECONDITION',
    message: 'The event stream cannot be created or brought to the requested configuration',
  },
  EVENT_CONSUMER_MISCONFIGURED: {
    kind: 'FAILED_PRECONDITION',
    message: 'The durable consumer cannot be created or brought to the requested configuration',
  },
  EVENT_PERMANENT_FAILURE: {
    kind: 'FAILED_PRECONDITION',
    message: 'The event can never be applied; it is recorded and acknowledged instead of retried',
  },
});

/**
 * Thrown by a handler to say "retrying cannot help" (the event refers to something that will
 * never exist, or breaks a rule of the aggregate). The consumer records it, dead-letters it when
 * configured, and acks it, so a poison message does not cycle through redeliveries.
 */
export class PermanentEventError extends DomainError<'EVENT_PERMANENT_FAILURE'> {
  constructor(message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super('EVENT_PERMANENT_FAILURE', eventErrors.catalogue.EVENT_PERMANENT_FAILURE.kind, message, options);
  }
}

/** True for a {@link PermanentEventError} (or any error of this catalogue with its code). */
export function isPermanentEventError(error: unknown): boolean {
  return eventErrors.is(error, 'EVENT_PERMANENT_FAILURE');
}
