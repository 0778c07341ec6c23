import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { publicReadiness, type Readiness } from './readiness.js';

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

export type ExtraRoute = (
  path: string,
) => Promise<{ status: number; contentType: string; body: string } | undefined>;

/**
 * The HTTP port of a gRPC service: `GET /healthz` (the process is alive) and `GET /readyz`
 * (its dependencies answer). Kubernetes probes and the local stack read these.
 */
export async function startHealthServer(options: {
  host: string;
  port: number;
  readiness: Readiness;
  extraRoute?: ExtraRoute;
}): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.method !== 'GET') return send(405, { status: 'method not allowed' });
    if (path === '/healthz') return send(200, { status: 'ok' });
    if (path === '/readyz') {
      // Names of the failing checks only: their errors (addresses, drivers' messages) go to the log.
      options.readiness.report().then(
        (report) => send(report.ready ? 200 : 503, publicReadiness(report)),
        () => send(503, { status: 'not ready', down: [] }),
      );
      return undefined;
    }
    if (options.extraRoute) {
      options.extraRoute(path).then(
        (answer) => {
          if (!answer) return send(404, { status: 'not found' });
          res.writeHead(answer.status, { 'content-type': answer.contentType });
          res.end(answer.body);
        },
        () => send(500, { status: 'error' }),
      );
      return undefined;
    }
    return send(404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
