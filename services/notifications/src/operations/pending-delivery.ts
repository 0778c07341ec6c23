import type { Delivery } from './ports.js';

/** A delivery of `body` to one endpoint, queued at `at`: pending, due at once, not yet attempted. */
export function pendingDelivery(
  fields: Pick<Delivery, 'id' | 'tenantId' | 'endpointId' | 'eventId' | 'eventType' | 'body'>,
  at: Date,
): Delivery {
  return {
    ...fields,
    status: 'PENDING',
    attempts: 0,
    nextAttemptAt: at,
    lastStatus: null,
    lastError: null,
    createdAt: at,
    updatedAt: at,
  };
}
