import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * The stand-in for a Kubernetes Service in front of the gateway: an HTTP reverse proxy on
 * loopback that spreads requests over a pool of backend ports. Rolling a backend is what the
 * endpoints controller does: add the new one once ready, remove the old one, then stop it.
 */
export interface LoopbackProxy {
  /** `http://127.0.0.1:<port>`. */
  readonly base: string;
  add(port: number): void;
  /** No new request goes to `port`; requests already forwarded there finish. */
  remove(port: number): void;
  close(): Promise<void>;
}

// Per connection, not end to end: never forwarded in either direction (RFC 9110, 7.6.1).
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te'];

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

/**
 * Starts the proxy on a free loopback port. A backend's failure (refused, reset) is answered
 * 502 and never retried: the system tests count it as a failed request, as a client would.
 */
export async function startLoopbackProxy(ports: readonly number[]): Promise<LoopbackProxy> {
  const pool = [...ports];
  let turn = 0;
  const agent = new Agent({ keepAlive: true });
  const forward = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const port = pool[turn++ % Math.max(pool.length, 1)];
    if (port === undefined) {
      outgoing.writeHead(503).end();
      return;
    }
    const upstream = request(
      {
        host: '127.0.0.1',
        port,
        method: incoming.method,
        path: incoming.url,
        headers: endToEnd(incoming.headers),
        agent,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    outgoing.on('close', () => {
      if (!outgoing.writableFinished) upstream.destroy();
    });
    incoming.pipe(upstream);
  };
  const server = createServer(forward);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    add: (backend) => {
      if (!pool.includes(backend)) pool.push(backend);
    },
    remove: (backend) => {
      const index = pool.indexOf(backend);
      if (index >= 0) pool.splice(index, 1);
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
      agent.destroy();
    },
  };
}
