/** How long a cached view is served without asking the store again (the tier promise: 1 s). */
export const DEFAULT_READ_MODEL_TTL_MS = 1_000;
/**
 * The TTL of a read model that every writer keeps current with change notices (the services' own
 * views: adoption's aggregates and plans, entitlements' tenant views). Notices, not the TTL, keep
 * such a view fresh; the TTL only bounds what a lost notice costs (a replica that missed it serves
 * the older view at most this long). Short TTLs there cost a store read per busy tenant and TTL,
 * whatever the read rate: a steady load on the store that notices already make needless.
 */
export const NOTICED_READ_MODEL_TTL_MS = 10_000;
/**
 * The TTL of a noticed read model while its replica hears the notices (`setListening(true)`: the
 * server has confirmed the subscription and the connection has not dropped since). Then every
 * change reaches every replica as a notice, and a gap the client sees (a disconnect, a close, the
 * server cutting off a slow consumer) forgets every view. So the TTL only bounds a notice lost
 * without any sign, and a view is otherwise kept until a change, a gap or the size bound removes
 * it: the in-process copy is kept current by the writers' notices, not reloaded on a timer, and
 * a thousand quiet tenants cost the store nothing. 15 minutes: adoption's drift-watch rescan, the
 * staleness its reads already accept for what time alone changes.
 */
export const HEARD_READ_MODEL_TTL_MS = 15 * 60_000;
/**
 * The share of the TTL after which a read still served from memory starts a reload: a key in use
 * is renewed before it expires, so its readers never wait for the store. Late in the TTL, so a
 * busy key costs the store about one load per TTL (1.33 a second at 1 s), whatever the read rate.
 */
export const REFRESH_AHEAD_AT = 0.75;
/** Views kept per cache; past it the least recently used one goes (a bound on memory). */
export const DEFAULT_READ_MODEL_MAX_ENTRIES = 50_000;

export interface VersionedCache<V, A = void> {
  /** The key's view: cached while fresh and not older than any version written or told about. */
  view(key: string, arg: A): Promise<V>;
  /**
   * A write of this replica or of another (told over NATS): views older than `version` are never
   * served again; without a version the key's view is only dropped.
   */
  changed(key: string, version?: number): void;
  /**
   * Whether the change notices can reach this replica now. Each switch forgets every view (a
   * notice may have been missed while they could not arrive, and a view kept under the longer
   * TTL must not outlive the switch), and loads in flight are not kept. Only caches built with
   * `heardTtlMs` switch TTLs; they start not listening.
   */
  setListening(listening: boolean): void;
  /** Views held now (tests check the bound). */
  size(): number;
}

export interface VersionedCacheSource<V, A = void> {
  /** Loads the key's view from the store (the argument is what the load needs, e.g. a credential). */
  readonly load: (key: string, arg: A) => Promise<V>;
  /** The view's version: what `changed` compares with. Views without one return 0. */
  readonly versionOf: (view: V) => number;
  readonly ttlMs?: number;
  /** The TTL while listening (see setListening); without it the TTL is always `ttlMs`. */
  readonly heardTtlMs?: number;
  readonly maxEntries?: number;
  /** Milliseconds; the TTL clock. */
  readonly now?: () => number;
}

interface Entry<V> {
  readonly view: Promise<V>;
  readonly expiresAt: number;
  /** From here on a read is still served from memory but starts one reload behind it. */
  readonly refreshAt: number;
  /** Bumped by changed(): a load started before it must not be stored over it. */
  readonly generation: number;
  /** Bumped by setListening(): likewise for every key. */
  readonly epoch: number;
  /** Set once the view loaded (only a loaded view is refreshed ahead) and while a reload runs. */
  loaded: boolean;
  refreshing: boolean;
}

/** Removes the oldest keys of an insertion-ordered map until it holds at most `max`. */
function trim(map: Map<string, unknown>, max: number): void {
  for (const key of map.keys()) {
    if (map.size <= max) return;
    map.delete(key);
  }
}

/**
 * An in-process read model: one view per key, kept at most `ttlMs`, concurrent misses sharing one
 * load, at most `maxEntries` views (least recently used out first).
 *
 * Consistency rule: a replica never serves a version older than one it wrote or was told about.
 * Every write bumps the stored version; the writer calls changed(key, version) (and publishes it
 * for the other replicas). changed() raises the key's floor and drops the entry; a load that comes
 * back below the floor (it raced the write) is not kept, and is loaded again before it is served.
 * The TTL bounds staleness when a notice is lost: a view served is never older than the TTL (it
 * was loaded at most `ttlMs` ago), and a key in use is reloaded from three quarters of its TTL on, behind its
 * readers (refresh ahead), so steady reads never wait for the store.
 */
export function createVersionedCache<V, A = void>(source: VersionedCacheSource<V, A>): VersionedCache<V, A> {
  const unheardTtl = source.ttlMs ?? DEFAULT_READ_MODEL_TTL_MS;
  let ttl = unheardTtl;
  let epoch = 0;
  const max = source.maxEntries ?? DEFAULT_READ_MODEL_MAX_ENTRIES;
  const now = source.now ?? Date.now;
  const entries = new Map<string, Entry<V>>();
  const floors = new Map<string, number>();
  const generations = new Map<string, number>();

  const load = async (key: string, arg: A, attempt = 1): Promise<V> => {
    const view = await source.load(key, arg);
    // A primary that has not caught up (or a read that raced a write): read once more.
    if (source.versionOf(view) < (floors.get(key) ?? 0) && attempt < 3) return load(key, arg, attempt + 1);
    return view;
  };

  /** Keeps `view` as the key's entry until it turns out stale, raced a change or failed. */
  const store = (key: string, view: Promise<V>, generation: number, at: number): Promise<V> => {
    const entry: Entry<V> = {
      view,
      expiresAt: at + ttl,
      refreshAt: at + ttl * REFRESH_AHEAD_AT,
      generation,
      epoch,
      loaded: false,
      refreshing: false,
    };
    entries.set(key, entry);
    trim(entries, max);
    view.then(
      (loaded) => {
        const stale = source.versionOf(loaded) < (floors.get(key) ?? 0);
        if (entries.get(key) !== entry) return;
        if (stale || entry.generation !== (generations.get(key) ?? 0) || entry.epoch !== epoch)
          entries.delete(key);
        else entry.loaded = true;
      },
      () => {
        if (entries.get(key) === entry) entries.delete(key);
      },
    );
    return view;
  };

  /**
   * A busy key is reloaded before its TTL runs out, behind the reads it keeps serving, so no read
   * waits for the store while the key stays in use. What the reload brings replaces the entry only
   * if nothing changed the key meanwhile (changed() drops the entry it was started from); a failed
   * reload leaves the entry to expire, and the next read after that loads in front of itself.
   */
  const refreshAhead = (key: string, arg: A, from: Entry<V>): void => {
    from.refreshing = true;
    // Its age counts from the start of the load: the store may answer with what it held then.
    const started = now();
    load(key, arg).then(
      (loaded) => {
        if (entries.get(key) !== from || from.epoch !== epoch) return;
        void store(key, Promise.resolve(loaded), from.generation, started);
      },
      () => {
        from.refreshing = false;
      },
    );
  };

  return {
    view(key, arg) {
      const cached = entries.get(key);
      const at = now();
      // A load still in flight is shared however long it takes: starting another for every read
      // while the store is slow would only make it slower.
      if (cached && (cached.expiresAt > at || !cached.loaded)) {
        // Most recently used goes last: trim() removes from the front.
        entries.delete(key);
        entries.set(key, cached);
        if (cached.loaded && at >= cached.refreshAt && !cached.refreshing) refreshAhead(key, arg, cached);
        return cached.view;
      }
      entries.delete(key);
      return store(key, load(key, arg), generations.get(key) ?? 0, at);
    },
    changed(key, version) {
      if (version !== undefined && version > (floors.get(key) ?? 0)) {
        floors.delete(key);
        floors.set(key, version);
        trim(floors, max);
      }
      const generation = (generations.get(key) ?? 0) + 1;
      generations.delete(key);
      generations.set(key, generation);
      trim(generations, max);
      entries.delete(key);
    },
    setListening(listening) {
      if (source.heardTtlMs === undefined) return;
      const next = listening ? source.heardTtlMs : unheardTtl;
      epoch += 1;
      entries.clear();
      ttl = next;
    },
    size: () => entries.size,
  };
}
