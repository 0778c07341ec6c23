/**
 * The answer to a claim.
 * - `held: false`: someone else owns it.
 * - `previous`: `self` when this holder already owned it (a renewal), `released` when the last
 *   owner let go cleanly (it handed back everything it had pulled), `unknown` when the lease was
 *   free because it expired or never existed (the last owner may have died holding messages).
 */
export type LeaseClaim =
  { readonly held: false } | { readonly held: true; readonly previous: 'self' | 'released' | 'unknown' };

/**
 * One active owner of a durable consumer. A claim that answers `held: true` grants ownership
 * for `ttlMs` from the moment it was sent; the holder renews well before that.
 */
export interface ConsumerLease {
  readonly ttlMs: number;
  /** Takes the lease when free, renews it when already ours. */
  claim(): Promise<LeaseClaim>;
  /** Lets go, marking a clean hand-over; does nothing when the lease is no longer ours. */
  release(): Promise<void>;
}
