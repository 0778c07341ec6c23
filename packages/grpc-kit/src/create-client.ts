import { experimental, type ChannelCredentials, type ChannelOptions, type Client } from '@grpc/grpc-js';
import type { PeerCertificate } from 'node:tls';
import type { ServiceTls } from './tls/service-tls.js';

const BASE_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 5_000,
  // Transparent retries (a call refused before the server saw it) and the retry policy below.
  'grpc.enable_retries': 1,
  // Reconnect soon after a peer comes back (gRPC's default waits 1 s, then 1.6 s, 2.6 s, ... up to 2 min):
  // a read waiting for the channel (see unaryCall) gets through within its deadline.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 250,
  // A `dns:///` target is looked up again whenever a connection ends (a server's GOAWAY at its
  // max connection age or shutdown). gRPC's default allows one lookup per 30 s, which would hide
  // a new replica (or keep a gone one) that long; one per second bounds the DNS traffic as well.
  'grpc.dns_min_time_between_resolutions_ms': 1_000,
  // Our service config below is the only one: none is taken from DNS TXT records.
  'grpc.service_config_disable_resolution': 1,
  // No channelz service is exposed, so its per-call bookkeeping would only cost every call.
  'grpc.enable_channelz': 0,
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

/**
 * Per-call balancing: the channel connects to every address its target resolves to and sends
 * each call to the next READY one, skipping addresses that are down or starting. gRPC's default
 * (`pick_first`) would send every call over one connection to one replica.
 */
export const LOAD_BALANCING_CONFIG = [{ round_robin: {} }] as const;

type ClientCtor<C> = (new (address: string, creds: ChannelCredentials, options: ChannelOptions) => C) & {
  readonly service?: Record<string, { readonly path?: string }>;
  readonly serviceName?: string;
};

/**
 * The channel's service config: LOAD_BALANCING_CONFIG, and READ_RETRY_POLICY on every idempotent
 * read among `paths` (`/package.Service/Method`, as in a generated client's service definition).
 */
export function channelServiceConfig(paths: readonly string[]): string {
  const reads = paths
    .map((path) => /^\/([^/]+)\/([^/]+)$/.exec(path))
    .filter((match): match is RegExpExecArray => match !== null && IDEMPOTENT_READ.test(match[2] ?? ''))
    .map((match) => ({ service: match[1], method: match[2] }));
  return JSON.stringify({
    loadBalancingConfig: LOAD_BALANCING_CONFIG,
    methodConfig: reads.length === 0 ? [] : [{ name: reads, retryPolicy: READ_RETRY_POLICY }],
  });
}

/** The options of every channel we open: reconnection, DNS re-resolution and channelServiceConfig(paths). */
export function channelOptions(paths: readonly string[]): ChannelOptions {
  return { ...BASE_CHANNEL_OPTIONS, 'grpc.service_config': channelServiceConfig(paths) };
}

/**
 * Channel credentials for mutual TLS with `tls`, accepting only a server whose certificate is
 * `serverService`'s SPIFFE ID in our trust domain and namespace. The check replaces Node's
 * hostname check (our certificates hold only a URI SAN, which Node no longer matches); the chain
 * is still verified against our CA.
 */
export function channelCredentials(tls: ServiceTls, serverService: string): ChannelCredentials {
  return experimental.createCertificateProviderChannelCredentials(tls.provider, tls.provider, {
    checkServerIdentity: (_host: string, certificate: PeerCertificate) =>
      tls.peerService(certificate.subjectaltname) === serverService
        ? undefined
        : new Error(`the server is not ${tls.peerId(serverService)}`),
  });
}

/**
 * The TLS server name (SNI) sent: the service's name rather than the target's host, which is often
 * an IP address (Node warns on those, DEP0123). Servers ignore it; the identity check is the SPIFFE ID.
 */
export function serverNameOption(server: string): ChannelOptions {
  return { 'grpc.ssl_target_name_override': server };
}

/** `identity` for `/tap.identity.v1.IdentityService/…`: our packages are named `tap.<service>.v1`. */
export function serviceOfPaths(paths: readonly string[]): string | undefined {
  return /^\/tap\.([a-z0-9-]+)\.v\d+\./.exec(paths[0] ?? '')?.[1];
}

/**
 * A client of one service, over mutual TLS with this process's identity (`tls`); the server must
 * present the identity of the service the client is for (`tap.<service>.v1`). `target` is a gRPC name:
 * `host:port`, `dns:///name:port` (e.g. a Kubernetes headless Service: every ready pod) or
 * `ipv4:10.0.0.1:50051,10.0.0.2:50051`. Calls are spread over every address the target
 * resolves to (LOAD_BALANCING_CONFIG). Idempotent reads (`Get*`, `List*`, `Find*`, `Can`) are
 * retried on UNAVAILABLE within their deadline (READ_RETRY_POLICY) and, through unaryCall, wait
 * for the channel to be ready, so a restart of the callee costs latency, not errors. Writes fail fast.
 */
export function createClient<C extends Client>(Ctor: ClientCtor<C>, target: string, tls: ServiceTls): C {
  const paths = Object.values(Ctor.service ?? {}).flatMap((definition) =>
    definition.path ? [definition.path] : [],
  );
  const server = serviceOfPaths(paths);
  if (server === undefined) throw new Error('createClient: not a tap.<service>.v1 client');
  return new Ctor(target, channelCredentials(tls, server), {
    ...channelOptions(paths),
    ...serverNameOption(server),
  });
}
