import { observeDbOperation } from './series.js';

/** The slice of an ioredis client (standalone or cluster) that is timed. */
export interface TimedRedis {
  sendCommand(command: { name: string; promise: Promise<unknown> }, ...rest: never[]): unknown;
}

const INSTRUMENTED = Symbol.for('tap.metrics.redis');

/**
 * Times every command the client sends (`db_client_operation_duration_seconds{system="redis"}`)
 * by wrapping its `sendCommand`, from the call to the reply or the error. Idempotent; returns
 * the same client.
 */
export function instrumentRedis<R extends object>(redis: R): R {
  const target = redis as unknown as TimedRedis & { [INSTRUMENTED]?: true };
  if (target[INSTRUMENTED]) return redis;
  const send = target.sendCommand.bind(target);
  target.sendCommand = (command, ...rest) => {
    const started = performance.now();
    const done = (outcome: 'ok' | 'error') => () =>
      observeDbOperation('redis', command.name, (performance.now() - started) / 1_000, outcome);
    command.promise.then(done('ok'), done('error'));
    return send(command, ...rest);
  };
  target[INSTRUMENTED] = true;
  return redis;
}
