import type { UsageDocument } from './usage-document.js';

/** Tenants whose last written document the batched writer remembers. */
export const LAST_WRITTEN_TENANTS = 5_000;
/** And at most this many recent event ids over all of them (a busy tenant keeps 1,000). */
export const LAST_WRITTEN_EVENT_IDS = 500_000;

/**
 * The batched writer's own last write of each tenant's usage document, as it now stands in the
 * database, so the next batch of the tenant folds on it without reading the document again.
 * Safe because the write that uses it is fenced on the document's `version`, which every writer
 * bumps: if anything else wrote the tenant since (a reserve, a clean-up, another replica), the
 * write matches nothing, the entry is forgotten and the document is read. Bounded: least recently
 * written out first.
 */
export interface LastWrittenUsage {
  get(tenantId: string): UsageDocument | undefined;
  set(tenantId: string, doc: UsageDocument): void;
  forget(tenantId: string): void;
}

export function lastWrittenUsage(
  maxTenants = LAST_WRITTEN_TENANTS,
  maxEventIds = LAST_WRITTEN_EVENT_IDS,
): LastWrittenUsage {
  // A Map iterates in insertion order: re-inserting on write keeps the least recent first.
  const docs = new Map<string, UsageDocument>();
  let eventIds = 0;
  const forget = (tenantId: string): void => {
    const doc = docs.get(tenantId);
    if (!doc) return;
    eventIds -= doc.recentEventIds?.length ?? 0;
    docs.delete(tenantId);
  };
  return {
    get: (tenantId) => docs.get(tenantId),
    forget,
    set(tenantId, doc) {
      forget(tenantId);
      docs.set(tenantId, doc);
      eventIds += doc.recentEventIds?.length ?? 0;
      for (const oldest of docs.keys()) {
        if (docs.size <= maxTenants && eventIds <= maxEventIds) break;
        forget(oldest);
      }
    },
  };
}

/**
 * The document after an update of `$inc` (dotted paths) and `$set` (top-level fields and
 * `reservations.<key>`) matched: what the database now holds, computed instead of read.
 */
export function afterUpdate(
  doc: UsageDocument,
  inc: Readonly<Record<string, number>>,
  set: Readonly<Record<string, unknown>>,
): UsageDocument {
  const next = structuredClone(doc) as unknown as Record<string, unknown>;
  for (const [path, amount] of Object.entries(inc)) {
    const { parent, leaf } = walk(next, path);
    parent[leaf] = (typeof parent[leaf] === 'number' ? parent[leaf] : 0) + amount;
  }
  for (const [path, value] of Object.entries(set)) {
    const { parent, leaf } = walk(next, path);
    parent[leaf] = structuredClone(value);
  }
  return next as unknown as UsageDocument;
}

/** The object holding a dotted path's last field, creating the objects on the way as $inc/$set do. */
function walk(
  root: Record<string, unknown>,
  path: string,
): { parent: Record<string, unknown>; leaf: string } {
  const parts = path.split('.');
  const leaf = parts.pop() ?? path;
  let parent = root;
  for (const part of parts) {
    const child = parent[part];
    if (typeof child === 'object' && child !== null) parent = child as Record<string, unknown>;
    else {
      const created: Record<string, unknown> = {};
      parent[part] = created;
      parent = created;
    }
  }
  return { parent, leaf };
}
