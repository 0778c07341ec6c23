export {
  createGrpcServer,
  DEFAULT_GRPC_MAX_CONNECTION_AGE_GRACE_MS,
  DEFAULT_GRPC_MAX_CONNECTION_AGE_MS,
  DEFAULT_GRPC_SHUTDOWN_TIMEOUT_MS,
} from './grpc-server.js';
export type { GrpcServer, GrpcServerOptions } from './grpc-server.js';
export { unaryHandler } from './unary-handler.js';
export type { CallContext, HandlerLogger } from './unary-handler.js';
export { unaryCall, DEFAULT_GRPC_DEADLINE_MS } from './unary-call.js';
export type { CallSettings, UnaryMethodName } from './unary-call.js';
export { memoiseFrozenEncoding } from './memo/frozen-encoding-memo.js';
export { exactBytes } from './memo/exact-bytes.js';
export { deepFreeze } from './memo/deep-freeze.js';
export { answerMemo } from './memo/answer-memo.js';
export type { AnswerMemo } from './memo/answer-memo.js';
export {
  channelCredentials,
  channelServiceConfig,
  createClient,
  isIdempotentRead,
  LOAD_BALANCING_CONFIG,
  READ_RETRY_POLICY,
} from './create-client.js';
export { RemoteCallError, isRemoteCallError, isRemoteUnavailable, localCallError } from './remote-error.js';
export {
  ERROR_CODE_KEY,
  ERROR_DETAILS_KEY,
  INVALID_ERROR_CODE,
  MAX_ERROR_DETAILS_CHARS,
  STATUS_BY_KIND,
  encodeErrorDetails,
  errorMetadata,
  safeStatusMessage,
} from './error-mapping.js';
export { injectTraceContext, extractTraceContext } from './trace-metadata.js';
export { currentRequestId, REQUEST_ID_METADATA, withRequestId } from './request-id.js';
// Shared with stores, which must not import the transport: they live in @tap/errors.
export { isDependencyUnavailable, DependencyUnavailableError } from '@tap/errors';
export { bearerFromMetadata } from './bearer.js';
export { status as GrpcStatus } from '@grpc/grpc-js';
export { createHealthChecker } from './health-client.js';
export { setRpcObserver } from './rpc-observer.js';
export type { RpcObserver } from './rpc-observer.js';
export { formatSpiffeId, parseSpiffeId, spiffeIdOfSubjectAltName } from './tls/spiffe-id.js';
export type { SpiffeId } from './tls/spiffe-id.js';
export {
  DEFAULT_TLS_REFRESH_INTERVAL_MS,
  ServiceTlsError,
  tlsFromFiles,
  tlsFromPem,
} from './tls/service-tls.js';
export type { ServiceTls, TlsFiles } from './tls/service-tls.js';
export {
  allowlistInterceptor,
  authorizeCall,
  HEALTH_PATH_PREFIX,
  PEER_SERVICE_METADATA,
  peerServiceOf,
  unlistedMethods,
} from './tls/rpc-allowlist.js';
export type { RpcAllowlist } from './tls/rpc-allowlist.js';
