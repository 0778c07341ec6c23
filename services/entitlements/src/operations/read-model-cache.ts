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
  /** The tenant's tier alone (GetTier, the upgrade context): never loads the usage document. */
  tier(tenantId: string): Promise<Tier>;
  /**
   * A write of this replica or of another (told over NATS): views older than `version` are never
   * served again; without a version (a tier change, among others) the tenant's tier and usage
   * are both dropped.
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
 * The in-process read model of tiers, usage, `can` and upgrade context, on the shared versioned
 * cache of @tap/runtime (its consistency rule: a replica never serves a version older than one it
 * wrote or was told about; the TTL bounds staleness when a notice is lost). The tier and the usage
 * document are held apart, so a GetTier (the gateway's quota lookup) costs one lookup of the tier
 * assignment and never the usage document; a view pairs them, and the same pair of objects gives
 * the same view object (the handlers' answer memos compare by identity).
 */
export function createReadModelCache<Tier extends object, Usage>(
  source: ReadModelSource<Tier, Usage>,
): ReadModelCache<Tier, Usage> {
  const shared = {
    ttlMs: source.ttlMs ?? NOTICED_READ_MODEL_TTL_MS,
    heardTtlMs: source.heardTtlMs ?? HEARD_READ_MODEL_TTL_MS,
    ...(source.now === undefined ? {} : { now: source.now }),
  };
  const tiers = createVersionedCache<Tier>({ load: source.loadTier, versionOf: () => 0, ...shared });
  const usages = createVersionedCache<{ usage: Usage; version: number }>({
    load: source.loadUsage,
    versionOf: (loaded) => loaded.version,
    ...shared,
  });
  const views = new WeakMap<object, TenantView<Tier, Usage>>();
  return {
    async view(tenantId) {
      const [tier, usage] = await Promise.all([tiers.view(tenantId), usages.view(tenantId)]);
      const kept = views.get(usage);
      if (kept?.tier === tier) return kept;
      const view = { tier, usage: usage.usage, version: usage.version };
      views.set(usage, view);
      return view;
    },
    tier: (tenantId) => tiers.view(tenantId),
    changed(tenantId, version) {
      if (version === undefined) tiers.changed(tenantId);
      usages.changed(tenantId, version);
    },
    setListening(listening) {
      tiers.setListening(listening);
      usages.setListening(listening);
    },
  };
}
