import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { unaryCall, tlsFromPem } from '@tap/grpc-kit';
import { createLogger } from '@tap/telemetry';
import { testIdentity } from '@tap/testkit';
import { buildApp, type EntitlementsApp } from '../src/app.js';
import { noticeSubject } from '../src/events/read-model-notices.js';
import { as } from '@tap/service-testkit';
import { openTestBed, type TestBed } from './support/test-bed.js';
import { gateOpen, waitFor } from '@tap/testkit';

let bed: TestBed;
let replica: EntitlementsApp;
const stops: (() => void)[] = [];

beforeAll(async () => {
  bed = await openTestBed('read model');
  // A second replica over the same database, whose cache would serve a view for a minute.
  replica = buildApp({
    config: { events: bed.events },
    db: bed.db,
    verifier: bed.tokens.verifier,
    revocations: bed.revocations.revocations,
    tls: tlsFromPem(await testIdentity('entitlements')),
    logger: createLogger({ service: 'entitlements-replica', level: 'silent' }),
    readModelTtlMs: 60_000,
  });
  stops.push(replica.startReadModelNotices(bed.nc), bed.app.startReadModelNotices(bed.nc));
});
afterAll(async () => {
  for (const stop of stops) stop();
  await bed.close();
});

function rowsOf(usage: { months?: Record<string, Record<string, { used?: number }>> } | null): number {
  return Object.values(usage?.months ?? {}).reduce(
    (sum, m) => sum + (m['BULK_UPLOAD_ROWS_MONTH']?.used ?? 0),
    0,
  );
}

describe('the cached read model across replicas', () => {
  it("drops a replica's cached view when another replica writes, long before its TTL", async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'CORE');
    const before = await replica.reads.view(tenantId);
    expect(rowsOf(before.usage)).toBe(0);
    expect((await replica.reads.view(tenantId)).version).toBe(before.version);

    // Heard on the same connection as the replica's subscription, after it: the replica has it too.
    const heard = gateOpen();
    const watch = bed.nc.subscribe(noticeSubject(bed.events.subjectPrefix), {
      callback: (_error, msg) => {
        if (msg.string().includes(tenantId)) heard.open();
      },
    });
    const granted = await unaryCall(
      bed.client,
      'Reserve',
      { action: 'BULK_UPLOAD', units: 10, idempotencyKey: 'cache-1' },
      await as(bed, tenantId),
    );
    expect(granted.granted).toBe(true);
    await heard.promise;
    watch.unsubscribe();

    const after = await replica.reads.view(tenantId);
    expect(after.version).toBeGreaterThan(before.version);
    expect(rowsOf(after.usage)).toBe(10);
  });

  it('serves a tier change made on another replica at once', async () => {
    const tenantId = randomUUID();
    await bed.setTier(tenantId, 'SUPPLIER_PLUS');
    expect((await replica.reads.view(tenantId)).tier.tierCode).toBe('SUPPLIER_PLUS');
    await bed.setTier(tenantId, 'ENTERPRISE');
    await waitFor(
      'the replica to serve the new tier',
      async () => (await replica.reads.view(tenantId)).tier.tierCode === 'ENTERPRISE',
    );
  });
  it('sends no change notice for a tenant the clean-up pass left as it was', async () => {
    const [quiet, sentinel] = [randomUUID(), randomUUID()];
    for (const tenantId of [quiet, sentinel]) await bed.setTier(tenantId, 'CORE');
    const reserve = async (tenantId: string, key: string) =>
      unaryCall(
        bed.client,
        'Reserve',
        { action: 'BULK_UPLOAD', units: 1, idempotencyKey: key },
        await as(bed, tenantId),
      );
    await reserve(quiet, 'quiet-1');
    const noticed = { quiet: 0 };
    const sentinelHeard = gateOpen();
    const watch = bed.nc.subscribe(noticeSubject(bed.events.subjectPrefix), {
      callback: (_error, msg) => {
        if (msg.string().includes(quiet)) noticed.quiet += 1;
        if (msg.string().includes(sentinel)) sentinelHeard.open();
      },
    });
    try {
      // Published after the pass on the same connection, so heard after anything the pass sent.
      await bed.app.runCleanup();
      await reserve(sentinel, 'sentinel-1');
      await sentinelHeard.promise;
      expect(noticed.quiet).toBe(0);
    } finally {
      watch.unsubscribe();
    }
  });
});
