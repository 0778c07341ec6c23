/** One server-sent message as a client sees it (the `id:` and `data:` fields), or a comment. */
export type SseItem = { kind: 'message'; id: string; data: string } | { kind: 'comment'; text: string };

/** An open event stream: its status and headers, the items read so far, and a way to hang up. */
export interface SseStream {
  readonly status: number;
  readonly headers: Headers;
  readonly items: SseItem[];
  /** Reads until `done(items)` holds or the server ends the stream; bounded by `timeoutMs`. */
  until(done: (items: readonly SseItem[]) => boolean, timeoutMs?: number): Promise<readonly SseItem[]>;
  close(): void;
}

/**
 * GETs `url` with `Accept: text/event-stream` and parses what arrives, as EventSource does:
 * blocks separated by a blank line, `id:`/`data:` fields, `:` comments.
 */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const items: SseItem[] = [];
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = response.status !== 200 || !reader;
  const readMore = async (): Promise<void> => {
    const chunk = await reader!.read();
    if (chunk.done) {
      ended = true;
      return;
    }
    buffer += decoder.decode(chunk.value as Uint8Array, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      items.push(...parseBlock(block));
    }
  };
  return {
    status: response.status,
    headers: response.headers,
    items,
    async until(done, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!done(items)) {
        if (ended) throw new Error(`the stream ended after ${items.length} items`);
        if (Date.now() > deadline)
          throw new Error(`not there within ${timeoutMs} ms: ${JSON.stringify(items)}`);
        await readMore();
      }
      return items;
    },
    close: () => abort.abort(),
  };
}

function parseBlock(block: string): SseItem[] {
  const lines = block.split('\n');
  const comments = lines
    .filter((l) => l.startsWith(':'))
    .map((l) => ({ kind: 'comment' as const, text: l.slice(1).trim() }));
  const field = (name: string) =>
    lines
      .filter((l) => l.startsWith(`${name}:`))
      .map((l) => l.slice(name.length + 1).replace(/^ /, ''))
      .join('\n');
  const data = field('data');
  return data ? [...comments, { kind: 'message', id: field('id'), data }] : comments;
}
