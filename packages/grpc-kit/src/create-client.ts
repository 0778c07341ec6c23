import { credentials, type Client, type ChannelOptions } from '@grpc/grpc-js';

const BASE_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // Transparent retries (a call refused before the server saw it) and the retry policy below.
  'grpc.enable_retries': 1,
  // Reconnect soon after a peer comes back (gRPC's default waits 1 s, then 1.6 s, 2.6 s, ... up to 2 min):
  // a read waiting for the channel (see unaryCall) gets through within its deadline.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 250,
};

const IDEMPOTENT_READ = /^(Get|List|Find)[A-Z]|^Can$/;

/** Read-only methods by name (`Get*`, `List*`, `Find*`, `Can`): retrying them cannot apply anything twice. */
export function isIdempotentRead(method: string): boolean {
  return IDEMPOTENT_READ.test(method);
}

/**
 * The retry policy of idempotent reads: on UNAVAILABLE (a peer restarting, its port closed for
 * a moment) grpc-js tries again up to 5 attempts in all, with jittered backoff from 100 ms to
 * 800 ms, always within the call's deadline. Writes are never retried here: an UNAVAILABLE
 * write may have been applied.
 */
export const READ_RETRY_POLICY = {
  maxAttempts: 5,
  initialBackoff: '0.1s',
  maxBackoff: '0.8s',
  backoffMultiplier: 2,
  retryableStatusCodes: ['UNAVAILABLE'],
} as const;

type ClientCtor<C> = (new (
  address: string,
  creds: ReturnType<typeof credentials.createInsecure>,
  options: ChannelOptions,
) => C) & {
  readonly service?: Record<string, { readonly path?: string }>;
};

/**
 * The channel's service config: READ_RETRY_POLICY on every idempotent read among `paths`
 * (`/package.Service/Method`, as in a generated client's service definition).
 */
export function retryServiceConfig(paths: readonly string[]): string {
  const reads = paths
    .map((path) => /^\/([^/]+)\/([^/]+)$/.exec(path))
    .filter((match): match is RegExpExecArray => match !== null && IDEMPOTENT_READ.test(match[2] ?? ''))
    .map((match) => ({ service: match[1], method: match[2] }));
  return JSON.stringify({
    methodConfig: reads.length === 0 ? [] : [{ name: reads, retryPolicy: READ_RETRY_POLICY }],
  });
}

/**
 * A client of one service at `address` (host:port), over plaintext inside the cluster network.
 * Idempotent reads (`Get*`, `List*`, `Find*`, `Can`) are retried on UNAVAILABLE within their
 * deadline (READ_RETRY_POLICY) and, through unaryCall, wait for the channel to be ready, so a
 * restart of the callee costs latency, not errors. Writes fail fast.
 */
export function createClient<C extends Client>(Ctor: ClientCtor<C>, address: string): C {
  const options: ChannelOptions = { ...BASE_CHANNEL_OPTIONS };
  const paths = Object.values(Ctor.service ?? {}).flatMap((definition) =>
    definition.path ? [definition.path] : [],
  );
  if (paths.length > 0) options['grpc.service_config'] = retryServiceConfig(paths);
  return new Ctor(address, credentials.createInsecure(), options);
}
