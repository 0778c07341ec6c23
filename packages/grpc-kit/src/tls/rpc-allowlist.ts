import {
  type Metadata,
  ResponderBuilder,
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type ServerInterceptingCallInterface,
  type ServerInterceptor,
  type ServiceDefinition,
} from '@grpc/grpc-js';
import type { ServiceTls } from './service-tls.js';

/**
 * Which service identities (SPIFFE service-account names: `gateway`, `operator`, …) may call each
 * RPC, keyed by its full path (`/tap.identity.v1.IdentityService/SsoSignIn`). Anything not listed
 * is refused: default deny.
 */
export type RpcAllowlist = Readonly<Record<string, readonly string[]>>;

/**
 * The health service answers every caller with a certificate from our CA in our namespace:
 * callers' readiness checks use it. Kubelet probes use each service's HTTP health port instead,
 * because a kubelet cannot present a client certificate.
 */
export const HEALTH_PATH_PREFIX = '/grpc.health.v1.Health/';

/** Every method path of these services that the allowlist lacks (the server refuses to start with any). */
export function unlistedMethods(
  definitions: readonly ServiceDefinition[],
  allowlist: RpcAllowlist,
): readonly string[] {
  return definitions
    .flatMap((definition) => Object.values(definition).map((method) => method.path))
    .filter((path) => !Object.hasOwn(allowlist, path));
}

/** The decision for one call: the caller's service name, or the status it is refused with. */
export function authorizeCall(
  path: string,
  callerService: string | undefined,
  allowlist: RpcAllowlist,
): { code: status.OK } | { code: status.UNAUTHENTICATED | status.PERMISSION_DENIED; details: string } {
  if (callerService === undefined)
    return {
      code: status.UNAUTHENTICATED,
      details: 'A client certificate with a service identity is required',
    };
  if (path.startsWith(HEALTH_PATH_PREFIX)) return { code: status.OK };
  const allowed = Object.hasOwn(allowlist, path) ? allowlist[path] : undefined;
  if (!allowed?.includes(callerService))
    return { code: status.PERMISSION_DENIED, details: `Service "${callerService}" may not call ${path}` };
  return { code: status.OK };
}

/**
 * The metadata key under which the interceptor hands a handler the caller's service, as the TLS
 * handshake proved it. Whatever a caller sends under this key is dropped first, so a handler
 * reading it reads only what the interceptor wrote (see {@link peerServiceOf}).
 */
export const PEER_SERVICE_METADATA = 'tap-peer-service';

/** The caller's service as the allowlist interceptor proved it; `undefined` on a server without it. */
export function peerServiceOf(metadata: Metadata): string | undefined {
  const values = metadata.get(PEER_SERVICE_METADATA);
  const [value] = values;
  return values.length === 1 && typeof value === 'string' ? value : undefined;
}

/**
 * A server interceptor that refuses, before any handler runs, a call whose peer certificate is not
 * a service identity of our trust domain and namespace (UNAUTHENTICATED) or whose service is not
 * on the method's allowlist (PERMISSION_DENIED). The identity comes only from the TLS handshake
 * (`getAuthContext()`), never from metadata a caller could write; an admitted call carries it on
 * to the handler under {@link PEER_SERVICE_METADATA}, overwriting whatever the caller sent there.
 */
export function allowlistInterceptor(tls: ServiceTls, allowlist: RpcAllowlist): ServerInterceptor {
  return (method, call: ServerInterceptingCallInterface) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const peer = call.getAuthContext().sslPeerCertificate;
        const decision = authorizeCall(method.path, tls.peerService(peer?.subjectaltname), allowlist);
        if (decision.code === status.OK) {
          metadata.remove(PEER_SERVICE_METADATA);
          metadata.set(PEER_SERVICE_METADATA, tls.peerService(peer?.subjectaltname) ?? '');
          return next(metadata);
        }
        return call.sendStatus({ code: decision.code, details: decision.details });
      })
      .build();
    return new ServerInterceptingCall(
      call,
      new ResponderBuilder().withStart((next) => next(listener)).build(),
    );
  };
}
