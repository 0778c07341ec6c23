import { api, API_BASE, ApiError } from './api.js';
import type { EventsPage, FeedEvent } from './types.js';

/** A full JSON page of the feed: more may be waiting behind it. */
const PAGE = 100;
/** The first wait before a refused stream is opened again, doubled up to the ceiling. */
const RETRY_FIRST_MS = 3_000;
const RETRY_MAX_MS = 60_000;

/** `ended`: the session is gone (signed out or revoked elsewhere); nothing is retried. */
export type LiveState = 'connecting' | 'live' | 'ended';

export interface LiveEvents {
  /** Each event of the subscribed types that happens after the subscription started. */
  readonly onEvent: (event: FeedEvent) => void;
  readonly onState?: (state: LiveState) => void;
}

const feedPath = (types: readonly string[], after: string) =>
  `/tenant/events?types=${types.join(',')}${after ? `&after=${encodeURIComponent(after)}` : ''}`;

/**
 * Follows the tenant's events feed as server-sent events and returns the function that stops.
 *
 * Why EventSource: the gateway authenticates `GET /tenant/events` with the `svc_session` cookie
 * like every API route, the console is on the same origin, and the stream needs no CSRF token
 * (a GET). EventSource then reconnects by itself with `Last-Event-ID`, so a dropped connection
 * loses nothing. What it cannot do is refresh the session: the access cookie lives 15 minutes,
 * and a reconnect with an expired one is a 401 that closes the EventSource for good. So on a
 * closed stream one API call goes through the seam (which refreshes the session on a 401), then
 * a new EventSource resumes after the last event seen, with a bounded back-off (a 429 at the
 * tenant's stream cap lands here too).
 *
 * The stream starts at the feed's end: the events already kept (30 days) are read through
 * first as JSON pages, so that only what happens from now on reaches `onEvent`.
 */
export function followEvents(types: readonly string[], handlers: LiveEvents): () => void {
  let stopped = false;
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let cursor = '';
  let caughtUp = false;
  let wait = RETRY_FIRST_MS;

  const catchUp = async () => {
    for (;;) {
      const page = await api<EventsPage>('GET', feedPath(types, cursor));
      cursor = page.nextCursor ?? cursor;
      if (page.events.length < PAGE || stopped) break;
    }
    caughtUp = true;
  };
  const retry = () => {
    handlers.onState?.('connecting');
    if (stopped) return;
    timer = setTimeout(() => void restart(), wait);
    wait = Math.min(wait * 2, RETRY_MAX_MS);
  };
  const open = () => {
    source = new EventSource(`${API_BASE}${feedPath(types, cursor)}`);
    source.onopen = () => {
      wait = RETRY_FIRST_MS;
      handlers.onState?.('live');
    };
    source.onmessage = (message: MessageEvent<string>) => {
      if (message.lastEventId) cursor = message.lastEventId;
      handlers.onEvent(JSON.parse(message.data) as FeedEvent);
    };
    source.onerror = () => {
      // CONNECTING: the browser reconnects with Last-Event-ID by itself. CLOSED: it gave up.
      if (source?.readyState !== EventSource.CLOSED) return handlers.onState?.('connecting');
      source.close();
      retry();
    };
  };
  const restart = async () => {
    try {
      // Catching up (the first time) or a cheap read (later) refreshes an expired session.
      if (!caughtUp) await catchUp();
      else await api('GET', '/tenant');
    } catch (error) {
      // A 401 here is after the seam's refresh was refused: the session ended, retrying is noise.
      if (error instanceof ApiError && error.status === 401) return handlers.onState?.('ended');
      return retry();
    }
    if (!stopped) open();
  };

  void restart();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
