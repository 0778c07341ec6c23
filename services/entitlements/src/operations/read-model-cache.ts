import { createVersionedCache, HEARD_READ_MODEL_TTL_MS, NOTICED_READ_MODEL_TTL_MS } from '@tap/runtime';

export { NOTICED_READ_MODEL_TTL_MS };

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
  /** Whether the other replicas' notices are heard now (see VersionedCache.setListening). */
  setListening(listening: boolean): void;
}

export interface ReadModelSource<Tier, Usage> {
  readonly loadTier: (tenantId: string) => Promise<Tier>;
  readonly loadUsage: (tenantId: string) => Promise<{ usage: Usage; version: number }>;
  readonly ttlMs?: number;
  /** The TTL while the notices are heard (HEARD_READ_MODEL_TTL_MS). */
  readonly heardTtlMs?: number;
  readonly now?: () => number;
}

/**
 * The in-process read model of usage, `can` and upgrade context: one tenant view (tier + usage
 * document) per tenant, on the shared versioned cache of @tap/runtime (its consistency rule: a
 * replica never serves a version older than one it wrote or was told about; the TTL bounds
 * staleness when a notice is lost).
 */
export function createReadModelCache<Tier, Usage>(
  source: ReadModelSource<Tier, Usage>,
): ReadModelCache<Tier, Usage> {
  const cache = createVersionedCache<TenantView<Tier, Usage>>({
    load: async (tenantId) => {
      const [tier, usage] = await Promise.all([source.loadTier(tenantId), source.loadUsage(tenantId)]);
      return { tier, usage: usage.usage, version: usage.version };
    },
    versionOf: (view) => view.version,
    ttlMs: source.ttlMs ?? NOTICED_READ_MODEL_TTL_MS,
    heardTtlMs: source.heardTtlMs ?? HEARD_READ_MODEL_TTL_MS,
    ...(source.now === undefined ? {} : { now: source.now }),
  });
  return {
    view: (tenantId) => cache.view(tenantId),
    changed: (tenantId, version) => cache.changed(tenantId, version),
    setListening: (listening) => cache.setListening(listening),
  };
}
