import type { FeedRepository } from './ports.js';

/** How long the events feed keeps an event. */
export const DEFAULT_FEED_RETENTION_MS = 30 * 24 * 3_600_000;

/** Drops feed entries older than the retention; the clean-up job runs it. */
export async function pruneFeed(
  deps: { readonly feed: FeedRepository; readonly now: () => Date },
  retentionMs: number,
): Promise<number> {
  return deps.feed.deleteReceivedBefore(new Date(deps.now().getTime() - retentionMs));
}
