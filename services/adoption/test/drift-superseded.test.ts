import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { runDriftPass, type DriftWatchDeps } from '../src/operations/run-drift-pass.js';
import { ingestProductEvents, type IngestDeps } from '../src/operations/ingest-product-events.js';
import { aggregatesRepository } from '../src/store/aggregates-repository.js';
import { driftRepository } from '../src/store/drift-repository.js';
import { itemMarkersRepository } from '../src/store/item-markers-repository.js';
import { rawEventsRepository } from '../src/store/raw-events-repository.js';
import { createTenantWriteLock } from '../src/store/tenant-write-lock.js';
import { PARTNER_1, productEvent } from './support/events.js';
import { openTestBed, type TestBed } from './support/test-bed.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = new Date('2025-06-02T08:00:00.000Z');
const RESCAN_MS = 15 * 60_000;

/**
 * A drift pass that loses its write to the consumer drops it: the winner wrote the same or a
 * newer truth. Not always: a consumer write that recomputed just BEFORE a ladder step was due and
 * landed just after the pass read the tenant carries the ledger without the step. The pass had
 * already moved the schedule to the next step (days later), so with no further event the step
 * waited for it. The pass now looks again soon after a lost write.
 */
describe('a drift pass whose write loses to an older consumer write', () => {
  let bed: TestBed;

  beforeAll(async () => {
    bed = await openTestBed('drift_superseded');
  });
  afterAll(async () => {
    await bed?.close();
  });

  it('looks at the tenant again at the next pass and records the step then', async () => {
    const lock = createTenantWriteLock();
    const aggregates = aggregatesRepository(bed.db, lock);
    const drift = driftRepository(bed.db, lock);
    const consumerAt = (now: Date): IngestDeps => ({
      aggregates,
      rawEvents: rawEventsRepository(bed.db),
      markers: itemMarkersRepository(bed.db),
      now: () => now,
      rescanMs: RESCAN_MS,
      schedule: (id, at) => drift.schedule(id, at),
      onTransitions: () => undefined,
    });
    const tenantId = randomUUID();
    const invited = productEvent(tenantId, 'connection.invited', { connectionId: 'c-1' }, T0, {
      partnerTenantId: PARTNER_1,
    });
    await ingestProductEvents(consumerAt(T0), tenantId, [{ event: invited, seq: 1 }]);

    // The invitation's risk is detected three days later; the pass runs an hour after that.
    const detectedAt = T0.getTime() + 3 * DAY;
    let now = new Date(detectedAt + HOUR);
    let interleave = true;
    const deps: DriftWatchDeps = {
      aggregates: {
        ...aggregates,
        // Between the pass's read and its write, the consumer writes an event it recomputed a
        // minute before the risk was due.
        load: async (id) => {
          const read = await aggregates.load(id);
          if (id === tenantId && interleave) {
            interleave = false;
            const late = productEvent(tenantId, 'product.created', { productId: 'p-1' }, T0);
            await ingestProductEvents(consumerAt(new Date(detectedAt - 60_000)), tenantId, [
              { event: late, seq: 2 },
            ]);
          }
          return read;
        },
      },
      drift,
      now: () => now,
      rescanMs: RESCAN_MS,
      leaseMs: 60_000,
      onTransitions: () => undefined,
      onTenantError: (_id, error) => {
        throw error;
      },
    };

    const first = await runDriftPass(deps);
    expect(first).toMatchObject({ claimed: 1, superseded: 1, failed: 0 });
    expect((await aggregates.load(tenantId)).signals).toEqual([]);

    now = new Date(now.getTime() + 5_000);
    const second = await runDriftPass(deps);
    expect(second).toMatchObject({ claimed: 1, recorded: 1, failed: 0 });
    expect((await aggregates.load(tenantId)).signals).toEqual([
      expect.objectContaining({
        kind: 'INVITATION_UNACCEPTED',
        resolution: 'OPEN',
        detectedAt: new Date(detectedAt).toISOString(),
      }),
    ]);
  });
});
