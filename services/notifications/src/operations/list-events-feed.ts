import type { OutboundEventType } from '@tap/contracts';
import { checkEventTypes, decodeCursor, encodeCursor } from '../domain/index.js';
import type { FeedRepository } from './ports.js';

/** Most entries in one page of the feed. */
export const MAX_FEED_PAGE = 100;

export interface FeedPage {
  readonly events: readonly unknown[];
  /** The cursor just after each event: a stream (server-sent events) resumes from any of them. */
  readonly cursors: readonly string[];
  /** Pass as `after` for the next page; the same cursor back when nothing is newer yet. */
  readonly nextCursor: string | null;
}

/** A tenant's outbound events after a cursor, oldest first (what the feed and its stream serve). */
export async function listEventsFeed(
  deps: { readonly feed: FeedRepository },
  input: { tenantId: string; after?: string; types?: readonly string[]; limit?: number },
): Promise<FeedPage> {
  const position = input.after ? decodeCursor(input.after) : null;
  const types: OutboundEventType[] | null = input.types?.length ? checkEventTypes(input.types) : null;
  const limit = Math.min(Math.max(input.limit ?? MAX_FEED_PAGE, 1), MAX_FEED_PAGE);
  const entries = await deps.feed.after(input.tenantId, position, types, limit);
  const last = entries.at(-1);
  return {
    events: entries.map((e) => JSON.parse(e.body) as unknown),
    cursors: entries.map((e) => encodeCursor(e.position)),
    nextCursor: last ? encodeCursor(last.position) : (input.after ?? null),
  };
}
