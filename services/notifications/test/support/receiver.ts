import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** How the receiver answers a request: a status (and headers), or never (held until released). */
export type Answer = { status: number; headers?: Record<string, string> } | 'hold';

/** A real HTTP receiver on loopback whose answers a test scripts per path. */
export interface Receiver {
  readonly url: string;
  readonly received: Received[];
  /** The most requests to `path` that were open at once. */
  maxOpen(path: string): number;
  answer(path: string, answers: Answer[] | ((n: number) => Answer)): void;
  /** Answers every held request 200. */
  release(): void;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const scripts = new Map<string, (n: number) => Answer>();
  const counts = new Map<string, number>();
  const held: Array<() => void> = [];
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const key = req.url ?? '/';
    const now = (open.get(key) ?? 0) + 1;
    open.set(key, now);
    maxOpen.set(key, Math.max(maxOpen.get(key) ?? 0, now));
    res.on('close', () => open.set(key, (open.get(key) ?? 1) - 1));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const n = counts.get(path) ?? 0;
      counts.set(path, n + 1);
      const answer = scripts.get(path)?.(n) ?? { status: 200 };
      if (answer === 'hold') {
        held.push(() => res.writeHead(200).end());
        return;
      }
      res.writeHead(answer.status, answer.headers).end();
    });
  });
  const release = (): void => {
    for (const answer of held.splice(0)) answer();
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    maxOpen: (path) => maxOpen.get(path) ?? 0,
    answer(path, answers) {
      scripts.set(path, typeof answers === 'function' ? answers : (n) => answers[n] ?? { status: 200 });
    },
    release,
    async close() {
      release();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
