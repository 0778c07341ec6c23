import { tracingChannel } from 'node:diagnostics_channel';
import { observeDbOperation } from '@tap/telemetry';

/** What ioredis (≥ 6) publishes for each command on its `ioredis:command` tracing channel. */
interface CommandContext {
  readonly command: string;
  error?: unknown;
}

/**
 * Times every command this process's ioredis clients send (`db_client_operation_duration_seconds
 * {system="redis"}`) from ioredis's own `ioredis:command` diagnostics channel, from the call to
 * the reply or the error. Nothing is wrapped or patched: the client publishes, we listen, and a
 * client built anywhere in the process (limiter, revocations, SSO states) is covered. Call once
 * in main.ts; returns the unsubscribe.
 */
export function observeRedisCommands(): () => void {
  const channel = tracingChannel<CommandContext, CommandContext>('ioredis:command');
  const started = new WeakMap<CommandContext, number>();
  const handlers = {
    start(context: CommandContext) {
      started.set(context, performance.now());
    },
    asyncEnd(context: CommandContext) {
      const at = started.get(context);
      if (at === undefined) return;
      const outcome = context.error === undefined ? 'ok' : 'error';
      observeDbOperation('redis', context.command, (performance.now() - at) / 1_000, outcome);
    },
    end() {},
    asyncStart() {},
    error() {},
  };
  channel.subscribe(handlers);
  return () => channel.unsubscribe(handlers);
}
