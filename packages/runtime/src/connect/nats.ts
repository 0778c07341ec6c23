import { connect } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/nats-core';
import type { Readiness } from '../readiness.js';
import { retryWithBackoff } from '../retry.js';
import type { DependencyLogger } from './dependency-logger.js';

export interface NatsDependency {
  /** The connection once established; undefined before. */
  current(): NatsConnection | undefined;
  /** Resolves with the connection once the first connect succeeds. */
  connected(): Promise<NatsConnection>;
  /** Drains (finishes in-flight publishes and subscriptions) and closes. */
  close(): Promise<void>;
}

/**
 * NATS, connected in the background with backoff; after the first connect, the client itself
 * reconnects forever. /readyz round-trips a flush to the server.
 */
export function createNatsDependency(options: {
  servers: string;
  name: string;
  /** Omitted by a process that works without NATS (the gateway): then /readyz does not ask. */
  readiness?: Readiness;
  logger: DependencyLogger;
  signal?: AbortSignal;
}): NatsDependency {
  let connection: NatsConnection | undefined;
  options.readiness?.register('nats', async () => {
    if (!connection || connection.isClosed()) throw new Error('not connected');
    await connection.flush();
  });
  const first = retryWithBackoff(
    () =>
      connect({
        servers: options.servers.split(',').map((s) => s.trim()),
        name: options.name,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1_000,
        timeout: 2_000,
      }),
    {
      ...(options.signal ? { signal: options.signal } : {}),
      onRetry: (error, attempt, delayMs) =>
        options.logger.warn(
          { dependency: 'nats', attempt, delayMs, err: (error as Error).message },
          'nats not reachable yet',
        ),
    },
  ).then((nc) => {
    connection = nc;
    options.logger.info({ dependency: 'nats' }, 'nats connected');
    return nc;
  });
  first.catch(() => undefined);
  return {
    current: () => connection,
    connected: () => first,
    async close() {
      if (connection && !connection.isClosed()) await connection.drain();
    },
  };
}
