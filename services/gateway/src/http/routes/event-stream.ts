import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventStreamSettings } from '../../config.js';

/** One page of the feed as a stream needs it: each event's JSON and the cursor just after it. */
export interface StreamPage {
  readonly events: readonly string[];
  readonly cursors: readonly string[];
  readonly nextCursor: string;
}

/** Reads the page after `cursor` ('' for the oldest kept event). Throws when the caller may no longer read. */
export type PageReader = (cursor: string) => Promise<StreamPage>;

/** A full page means more is waiting: ask again at once rather than after the poll interval. */
const FULL_PAGE = 100;
/** What a browser waits before it reconnects (the SSE `retry:` field). */
const RECONNECT_MS = 3_000;

/**
 * The open event streams of one gateway process: how many each tenant holds (the cap answers
 * 429 beyond it), and a way to end them all when the process drains.
 */
export interface EventStreams {
  /** Takes a slot for `tenantId`; false when the tenant holds `perTenant` streams already. */
  open(tenantId: string): boolean;
  release(tenantId: string): void;
  /** Ends every open stream (the process is draining). */
  endAll(): void;
  onEndAll(end: () => void): () => void;
  readonly settings: EventStreamSettings;
}

export function eventStreams(settings: EventStreamSettings): EventStreams {
  const open = new Map<string, number>();
  const enders = new Set<() => void>();
  return {
    settings,
    open(tenantId) {
      const held = open.get(tenantId) ?? 0;
      if (held >= settings.perTenant) return false;
      open.set(tenantId, held + 1);
      return true;
    },
    release(tenantId) {
      const held = (open.get(tenantId) ?? 1) - 1;
      if (held <= 0) open.delete(tenantId);
      else open.set(tenantId, held);
    },
    endAll() {
      for (const end of [...enders]) end();
    },
    onEndAll(end) {
      enders.add(end);
      return () => enders.delete(end);
    },
  };
}

/** One SSE message: the cursor after the event as its id (so Last-Event-ID resumes after it). */
export function sseMessage(cursor: string, eventJson: string): string {
  // JSON.stringify never emits a raw newline, so the event is one `data:` line.
  return `id: ${cursor}\ndata: ${eventJson}\n\n`;
}

/**
 * Serves the feed as server-sent events on the hijacked reply, from `first` (already read, so a
 * bad cursor was answered 400 before any byte of the stream), polling `read` for newer events and
 * sending a heartbeat comment while nothing happens. Ends when the client goes, when a read fails
 * (the token expired or was revoked: the client reconnects with a fresh one), or when the
 * process drains; `done` is called exactly once.
 */
export function serveEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  streams: EventStreams,
  start: { readonly first: StreamPage; readonly read: PageReader; readonly done: () => void },
): void {
  const { pollMs, heartbeatMs } = streams.settings;
  const raw = reply.raw;
  void reply.hijack();
  // The headers hooks set before the handler (rate-limit counters) go out with the stream's own.
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) raw.setHeader(name, value);
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    // Proxies (nginx) would otherwise hold the events back in their buffers.
    'x-accel-buffering': 'no',
  });
  raw.write(`retry: ${RECONNECT_MS}\n\n`);
  let cursor = start.first.nextCursor;
  let ended = false;
  let poll: NodeJS.Timeout | undefined;
  const write = (page: StreamPage): void => {
    page.events.forEach((json, i) => raw.write(sseMessage(page.cursors[i] ?? page.nextCursor, json)));
    if (page.nextCursor) cursor = page.nextCursor;
  };
  const heartbeat = setInterval(() => raw.write(': heartbeat\n\n'), heartbeatMs);
  const end = (): void => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    clearTimeout(poll);
    forget();
    start.done();
    raw.end();
  };
  const forget = streams.onEndAll(end);
  const next = (delay: number): void => {
    poll = setTimeout(() => {
      start.read(cursor).then(
        (page) => {
          if (ended) return;
          write(page);
          next(page.events.length >= FULL_PAGE ? 0 : pollMs);
        },
        (error: unknown) => {
          request.log.info({ err: error }, 'event stream ended: the feed refused a read');
          end();
        },
      );
    }, delay);
  };
  // The response's close (the client went, or we ended it); the request's fires once it is read.
  raw.on('close', end);
  raw.on('error', end);
  write(start.first);
  next(start.first.events.length >= FULL_PAGE ? 0 : pollMs);
}
