import { observeDbOperation } from './series.js';

/** The command-monitoring events of a MongoClient created with `monitorCommands: true`. */
export interface MonitoredMongoClient {
  on(
    event: 'commandSucceeded' | 'commandFailed',
    listener: (event: { commandName: string; duration: number }) => void,
  ): unknown;
}

/**
 * Records every command's duration from the driver's command monitoring
 * (`db_client_operation_duration_seconds{system="mongodb"}`). The client must be created with
 * `monitorCommands: true`.
 */
export function observeMongoCommands(client: MonitoredMongoClient): void {
  client.on('commandSucceeded', (event) =>
    observeDbOperation('mongodb', event.commandName, event.duration / 1_000, 'ok'),
  );
  client.on('commandFailed', (event) =>
    observeDbOperation('mongodb', event.commandName, event.duration / 1_000, 'error'),
  );
}
