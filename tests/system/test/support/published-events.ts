import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ProductEvent } from '@tap/contracts';
import { storedSummary } from '@tap/adoption';
import type { ProcessStack } from './process-stack.js';

/** Events being published; `stop()` ends the loop and resolves with every event published. */
export interface Publishing {
  stop(): Promise<ProductEvent[]>;
}

/**
 * Publishes one `product.created` every `everyMs`, at most `maxEvents`, each for a tenant of its
 * own. One tenant per event because the local database, FerretDB on SQLite, does not apply
 * concurrent updates of one document atomically (docs/foundation.md), and during a roll two
 * processes of a consumer run at once: events of one tenant handled by both would race in the
 * database, not in the delivery under test. Production runs MongoDB, where they do not.
 */
export function startPublishing(
  stack: ProcessStack,
  options: { maxEvents: number; everyMs: number },
): Publishing {
  const published: ProductEvent[] = [];
  let publishing = true;
  const loop = (async () => {
    while (publishing && published.length < options.maxEvents) {
      const event: ProductEvent = {
        id: randomUUID(),
        type: 'product.created',
        tenantId: randomUUID(),
        occurredAt: new Date().toISOString(),
        subject: { productId: randomUUID() },
        data: {},
      };
      await stack.publish(event);
      published.push(event);
      await sleep(options.everyMs);
    }
  })();
  return {
    async stop() {
      publishing = false;
      await loop;
      return published;
    },
  };
}

/**
 * The ids of `events` adoption applied, one entry per application: the ids its tenants'
 * summaries keep, and an extra entry for every application the summary counted beyond them
 * (a doubled event shows up twice). Each published event has its own tenant, so its summary
 * keeps it.
 */
export async function adoptionFacts(stack: ProcessStack, events: readonly ProductEvent[]): Promise<string[]> {
  const docs = await stack.mongo
    .db(stack.databases.adoption)
    .collection<{ _id: string; summary?: Parameters<typeof storedSummary>[0] }>('aggregates')
    .find({ _id: { $in: events.map((event) => event.tenantId) } }, { projection: { summary: 1 } })
    .toArray();
  return docs.flatMap((doc) => {
    // Stored packed since issue 13's last round; adoption reads either shape.
    const summary = storedSummary(doc.summary);
    const ids = [...new Set((summary?.slots ?? []).flatMap((slot) => slot.facts.map((f) => f.id)))];
    const extra = Math.max(0, (summary?.applied ?? 0) - ids.length);
    return [...ids, ...Array.from({ length: extra }, () => ids[0] ?? doc._id)];
  });
}

/** Entitlements' MAX_ACTIVE_PRODUCTS count of each tenant of `events` that has one. */
export async function productCounts(
  stack: ProcessStack,
  events: readonly ProductEvent[],
): Promise<Record<string, number>> {
  const docs = await stack.mongo
    .db(stack.databases.entitlements)
    .collection<{ _id: string; counters?: { MAX_ACTIVE_PRODUCTS?: { used?: number } } }>('usage')
    .find({ _id: { $in: events.map((event) => event.tenantId) } }, { projection: { counters: 1 } })
    .toArray();
  return Object.fromEntries(
    docs.flatMap((doc) => {
      const used = doc.counters?.MAX_ACTIVE_PRODUCTS?.used;
      return used === undefined ? [] : [[doc._id, used] as const];
    }),
  );
}
