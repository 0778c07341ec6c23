/** How long a cached tenant view is served without looking at the store again (the tier promise: 1 s). */
export const DEFAULT_READ_MODEL_TTL_MS = 1_000;
/** Tenants kept; past it the cache starts over (a bound on memory, not an eviction policy). */
export const MAX_CACHED_TENANTS = 50_000;

/** What a read serves: the tenant's tier and its usage view, with the usage document's version. */
export interface TenantView<Tier, Usage> {
  readonly tier: Tier;
  readonly usage: Usage;
  readonly version: number;
}

export interface ReadModelCache<Tier, Usage> {
  /** The tenant's view: cached while fresh and not older than any version written or told about. */
  view(tenantId: string): Promise<TenantView<Tier, Usage>>;
  /**
   * A write of this replica or of another (told over NATS): views older than `version` are never
   * served again; without a version (a tier change) the tenant's view is dropped.
   */
  changed(tenantId: string, version?: number): void;
}

export interface ReadModelSource<Tier, Usage> {
  readonly loadTier: (tenantId: string) => Promise<Tier>;
  readonly loadUsage: (tenantId: string) => Promise<{ usage: Usage; version: number }>;
  readonly ttlMs?: number;
  readonly now?: () => number;
}

interface Entry<Tier, Usage> {
  readonly view: Promise<TenantView<Tier, Usage>>;
  readonly expiresAt: number;
  /** Bumped by changed(): a load started before it must not be stored over it. */
  readonly generation: number;
}

/**
 * The in-process read model of usage, `can` and upgrade context: one tenant view (tier + usage
 * document) per tenant, kept at most `ttlMs`, concurrent misses sharing one load.
 *
 * Consistency rule: a replica never serves a version older than one it wrote or was told about.
 * Every write bumps the document's `version`; the writer calls changed(tenant, version) (and
 * publishes it for the other replicas). changed() raises the tenant's floor and drops the
 * entry; a load that comes back below the floor (it raced the write) is not kept, and is
 * loaded again before it is served. The TTL bounds staleness when a notice is lost.
 */
export function createReadModelCache<Tier, Usage>(
  source: ReadModelSource<Tier, Usage>,
): ReadModelCache<Tier, Usage> {
  const ttl = source.ttlMs ?? DEFAULT_READ_MODEL_TTL_MS;
  const now = source.now ?? Date.now;
  const entries = new Map<string, Entry<Tier, Usage>>();
  const floors = new Map<string, number>();
  const generations = new Map<string, number>();

  const load = async (tenantId: string, attempt = 1): Promise<TenantView<Tier, Usage>> => {
    const [tier, usage] = await Promise.all([source.loadTier(tenantId), source.loadUsage(tenantId)]);
    const view = { tier, usage: usage.usage, version: usage.version };
    // A primary that has not caught up (or a read that raced a write): read once more.
    if (view.version < (floors.get(tenantId) ?? 0) && attempt < 3) return load(tenantId, attempt + 1);
    return view;
  };

  return {
    view(tenantId) {
      const cached = entries.get(tenantId);
      if (cached && cached.expiresAt > now()) return cached.view;
      if (entries.size >= MAX_CACHED_TENANTS) entries.clear();
      const generation = generations.get(tenantId) ?? 0;
      const view = load(tenantId);
      entries.set(tenantId, { view, expiresAt: now() + ttl, generation });
      view.then(
        (loaded) => {
          const entry = entries.get(tenantId);
          const stale = loaded.version < (floors.get(tenantId) ?? 0);
          if (entry?.view === view && (stale || entry.generation !== (generations.get(tenantId) ?? 0)))
            entries.delete(tenantId);
        },
        () => {
          if (entries.get(tenantId)?.view === view) entries.delete(tenantId);
        },
      );
      return view;
    },
    changed(tenantId, version) {
      if (version !== undefined && version > (floors.get(tenantId) ?? 0)) floors.set(tenantId, version);
      if (floors.size > MAX_CACHED_TENANTS) floors.clear();
      generations.set(tenantId, (generations.get(tenantId) ?? 0) + 1);
      if (generations.size > MAX_CACHED_TENANTS) generations.clear();
      entries.delete(tenantId);
    },
  };
}
