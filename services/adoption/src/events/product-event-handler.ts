import type { ProductEvent } from '@tap/contracts';
import { ingestProductEvents, type IngestDeps } from '../operations/ingest-product-events.js';

export interface EventHandlerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface ProductEventHandlerDeps extends IngestDeps {
  readonly logger: EventHandlerLogger;
}

/**
 * The milestone detector on the per-message consumer: one event is a group of one for the
 * ingest use case (operations/ingest-product-events.ts). No size cap: the aggregate keeps a
 * bounded summary, so a tenant's millionth event costs what its first did.
 */
export function productEventHandler(deps: ProductEventHandlerDeps) {
  return async (event: ProductEvent): Promise<void> => {
    const outcome = await ingestProductEvents(deps, event.tenantId, [{ event, seq: null }]);
    if (outcome.ignored > 0) {
      deps.logger.info({ eventId: event.id, type: event.type }, 'event ignored: no adoption rule uses it');
    } else if (outcome.duplicates > 0) {
      deps.logger.info({ eventId: event.id }, 'event already applied');
    }
  };
}
