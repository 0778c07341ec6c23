import type { Db } from 'mongodb';
import type { TestClock } from '@tap/testkit';
import type { IngestDeps } from '../../src/operations/ingest-product-events.js';
import { aggregatesRepository } from '../../src/store/aggregates-repository.js';
import { driftRepository } from '../../src/store/drift-repository.js';
import { itemMarkersRepository } from '../../src/store/item-markers-repository.js';
import { rawEventsRepository } from '../../src/store/raw-events-repository.js';
import type { SummaryPartsRepository } from '../../src/store/summary-parts-repository.js';
import { createTenantWriteLock, type TenantWriteLock } from '../../src/store/tenant-write-lock.js';

/**
 * The ingest use case over the real store of `db`, as the consumer wires it but without NATS:
 * the drift schedule written, ladder moves ignored, a 15-minute rescan.
 */
export function storeIngestDeps(
  db: Db,
  clock: TestClock,
  options: { lock?: TenantWriteLock; parts?: SummaryPartsRepository } = {},
): IngestDeps {
  const lock = options.lock ?? createTenantWriteLock();
  const drift = driftRepository(db, lock);
  return {
    aggregates: aggregatesRepository(db, lock, options.parts),
    markers: itemMarkersRepository(db),
    rawEvents: rawEventsRepository(db),
    now: clock.now,
    rescanMs: 900_000,
    schedule: (tenantId, at) => drift.schedule(tenantId, at),
    onTransitions: () => undefined,
  };
}
