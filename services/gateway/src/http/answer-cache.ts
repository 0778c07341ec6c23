import { exactBytes } from '@tap/grpc-kit';

/**
 * How long a tenant's read answer is reused: the freshness the services keep themselves (a read's
 * recompute and the tier lookup are each reused for 1 s), so a time- or tier-driven change shows
 * within it. A write the gateway was told about ends the reuse at once (see createAnswerCache).
 */
export const DEFAULT_ANSWER_REUSE_MS = 1_000;
/** Serialised answers kept at most, in bytes (a tenant's state is a few KB). */
export const DEFAULT_ANSWER_CACHE_BYTES = 32 * 1024 * 1024;
/**
 * Answers kept per tenant at most: one tenant asking for many inputs (every risk-signal limit,
 * every resource count) keeps its newest answers instead of pushing other tenants' out.
 */
export const MAX_ANSWERS_PER_TENANT = 32;
/** Tenants whose last change is remembered by name; an older change is remembered as "before N". */
const REMEMBERED_CHANGES = 100_000;

/** Taken before a load asks the service: what the answer may be compared with when it comes. */
export interface AnswerTicket {
  readonly sequence: number;
  readonly at: number;
}

/** A gateway's serialised read answers per tenant (docs/adoption-model.md, "Read models"). */
export interface AnswerCache {
  /** The answer kept for the tenant's `key`, while fresh and not older than a change it was told about. */
  get(tenantId: string, key: string): Buffer | undefined;
  /** Call before asking the service. */
  ticket(): AnswerTicket;
  /** Keeps `body` unless the tenant changed after `ticket` was taken (the answer may predate it). */
  keep(tenantId: string, key: string, body: Buffer, ticket: AnswerTicket): void;
  /** The tenant changed (a service's change notice, or a write this gateway relayed). */
  changed(tenantId: string): void;
  /** Off while the change notices cannot arrive: nothing is reused or kept. */
  setListening(listening: boolean): void;
}

interface Entry {
  readonly tenantId: string;
  readonly body: Buffer;
  readonly ticket: AnswerTicket;
}

/**
 * The gateway's read model of the services' answers: the serialised body of a tenant's read,
 * reused for `reuseMs` (counted from before the service was asked) unless the tenant changes.
 * Changes arrive as the services' change notices on NATS (the same `{ tenantId, version }` their
 * replicas exchange) and from the writes this gateway relays, so a gateway never serves an answer
 * older than a change it wrote or was told about; a lost notice costs at most `reuseMs`.
 *
 * A load in flight when its tenant changes is not kept (its answer may predate the change): each
 * change takes the next number of one sequence, and an answer is kept and served only while the
 * tenant's last change is not newer than the sequence its load started at. Bounded: entries by
 * bytes (least recently used go first) and per tenant (its own oldest go first, so one tenant
 * asking for many inputs never pushes the others out), changes by tenant (a forgotten tenant's change counts as
 * the newest forgotten one, which only ever refuses more). Keyed by the verified token's tenant,
 * so no tenant meets another's answer; the route's own requirement was checked before.
 */
export function createAnswerCache(
  options: { reuseMs?: number; maxBytes?: number; now?: () => number } = {},
): AnswerCache {
  const reuseMs = options.reuseMs ?? DEFAULT_ANSWER_REUSE_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_ANSWER_CACHE_BYTES;
  const now = options.now ?? Date.now;
  let listening = false;
  let sequence = 0;
  let forgottenUpTo = 0;
  // Map order is insertion order: re-inserting makes an entry the most recently used.
  const changes = new Map<string, number>();
  const entries = new Map<string, Entry>();
  const perTenant = new Map<string, number>();
  let bytes = 0;

  const lastChange = (tenantId: string): number => changes.get(tenantId) ?? forgottenUpTo;
  const drop = (key: string, entry: Entry): void => {
    entries.delete(key);
    bytes -= entry.body.length;
    const left = (perTenant.get(entry.tenantId) ?? 1) - 1;
    if (left > 0) perTenant.set(entry.tenantId, left);
    else perTenant.delete(entry.tenantId);
  };
  // Notices missed while away could concern any tenant: every load begun before counts as stale.
  const forgetAll = (): void => {
    entries.clear();
    perTenant.clear();
    bytes = 0;
    changes.clear();
    sequence += 1;
    forgottenUpTo = sequence;
  };

  // Rare (a tenant at its bound): a walk from the least recently used end to its first answer.
  const dropOldestOf = (tenantId: string): void => {
    for (const [id, entry] of entries) {
      if (entry.tenantId !== tenantId) continue;
      drop(id, entry);
      return;
    }
  };

  return {
    get(tenantId, key) {
      if (!listening) return undefined;
      const id = entryKey(tenantId, key);
      const entry = entries.get(id);
      if (!entry) return undefined;
      if (now() - entry.ticket.at >= reuseMs || lastChange(tenantId) > entry.ticket.sequence) {
        drop(id, entry);
        return undefined;
      }
      entries.delete(id);
      entries.set(id, entry);
      return entry.body;
    },
    ticket: () => ({ sequence, at: now() }),
    keep(tenantId, key, body, ticket) {
      if (!listening || reuseMs <= 0 || body.length > maxBytes) return;
      if (lastChange(tenantId) > ticket.sequence || now() - ticket.at >= reuseMs) return;
      const id = entryKey(tenantId, key);
      const previous = entries.get(id);
      if (previous) drop(id, previous);
      if ((perTenant.get(tenantId) ?? 0) >= MAX_ANSWERS_PER_TENANT) dropOldestOf(tenantId);
      // In memory of its own: a slice of Node's buffer pool would keep a 64 KiB slab per answer.
      entries.set(id, { tenantId, body: exactBytes(body), ticket });
      perTenant.set(tenantId, (perTenant.get(tenantId) ?? 0) + 1);
      bytes += body.length;
      for (const [oldest, entry] of entries) {
        if (bytes <= maxBytes) break;
        drop(oldest, entry);
      }
    },
    changed(tenantId) {
      sequence += 1;
      changes.delete(tenantId);
      changes.set(tenantId, sequence);
      if (changes.size > REMEMBERED_CHANGES) {
        const [oldest, at] = changes.entries().next().value as [string, number];
        changes.delete(oldest);
        forgottenUpTo = at;
      }
    },
    setListening(value) {
      if (!value) forgetAll();
      listening = value;
    },
  };
}

// A tenant id never holds a NUL (it comes from a verified token's claims).
function entryKey(tenantId: string, key: string): string {
  return `${tenantId}\u0000${key}`;
}
