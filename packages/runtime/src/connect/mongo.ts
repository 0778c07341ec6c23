import { MongoClient, type Db } from 'mongodb';
import { observeMongoCommands } from '@tap/telemetry';
import type { Readiness } from '../readiness.js';
import { retryWithBackoff } from '../retry.js';
import type { DependencyLogger } from './dependency-logger.js';

/** How long an operation waits for a reachable server before failing (then the caller answers UNAVAILABLE). */
export const MONGO_SERVER_SELECTION_TIMEOUT_MS = 2_000;

export interface MongoDependency {
  readonly client: MongoClient;
  readonly db: Db;
  /** Resolves once the first connection succeeds; retries with backoff until then. */
  connected(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The service's MongoDB database. The client exists at once (operations wait for a server up to
 * the selection timeout), connects in the background with backoff, and registers a ping check
 * so /readyz follows the database, including after it comes back. Every command's duration goes
 * to `db_client_operation_duration_seconds{system="mongodb"}` (command monitoring).
 */
export function createMongoDependency(options: {
  url: string;
  database: string;
  appName: string;
  readiness: Readiness;
  logger: DependencyLogger;
  signal?: AbortSignal;
}): MongoDependency {
  const client = new MongoClient(options.url, {
    appName: options.appName,
    serverSelectionTimeoutMS: MONGO_SERVER_SELECTION_TIMEOUT_MS,
    connectTimeoutMS: MONGO_SERVER_SELECTION_TIMEOUT_MS,
    monitorCommands: true,
  });
  observeMongoCommands(client);
  const db = client.db(options.database);
  options.readiness.register('mongo', async () => {
    await db.command({ ping: 1 });
  });
  const first = retryWithBackoff(() => client.connect(), {
    ...(options.signal ? { signal: options.signal } : {}),
    onRetry: (error, attempt, delayMs) =>
      options.logger.warn(
        { dependency: 'mongo', attempt, delayMs, err: (error as Error).message },
        'mongo not reachable yet',
      ),
  }).then(() => options.logger.info({ dependency: 'mongo' }, 'mongo connected'));
  first.catch(() => undefined);
  return {
    client,
    db,
    connected: () => first.then(() => undefined),
    close: () => client.close(),
  };
}
