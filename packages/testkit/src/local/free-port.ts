import { createServer } from 'node:net';

/**
 * Loopback ports handed out come from below Linux's ephemeral range (32768–60999 by default):
 * a port of that range, released here and bound later by a child process, can meanwhile become
 * the local port of any outgoing connection (gRPC, Redis, Mongo clients open many), and the
 * child then fails to bind (a rolling-restart run saw identity die with "No address added").
 * Below the range only an explicit bind can take it.
 */
const LOW = 15_000;
const HIGH = 32_000;
const ATTEMPTS = 50;

/** Binds `port` (0: the kernel picks) on 127.0.0.1 and releases it; resolves to the port, or null if taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(null) : reject(error),
    );
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(address && typeof address === 'object' ? address.port : null));
    });
  });
}

/**
 * A free loopback port, from below the ephemeral range when one is free there (random, checked
 * by binding it), else whatever the kernel picks. The port is released before use, so callers
 * still retry on EADDRINUSE.
 */
export async function freeLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const port = await tryPort(LOW + Math.floor(Math.random() * (HIGH - LOW)));
    if (port !== null) return port;
  }
  const port = await tryPort(0);
  if (port === null) throw new Error('no port assigned');
  return port;
}
