import {
  Metadata,
  status,
  type CallOptions,
  type Client,
  type ClientUnaryCall,
  type requestCallback,
  type ServiceError,
} from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { tracesRecorded } from '@tap/telemetry';
import { localCallError, RemoteCallError } from './remote-error.js';
import { injectRequestId } from './request-id.js';
import { injectTraceContext } from './trace-metadata.js';
import { reportRpc } from './rpc-observer.js';
import { isIdempotentRead } from './create-client.js';

export const DEFAULT_GRPC_DEADLINE_MS = 2_000;

// Conditional types read the last overload of a generated client method: (argument, callback).
type RequestOf<F> = F extends (argument: infer A, callback: requestCallback<infer _R>) => ClientUnaryCall
  ? A
  : never;
type ResponseOf<F> = F extends (argument: infer _A, callback: requestCallback<infer R>) => ClientUnaryCall
  ? R
  : never;

/** The names of a generated client's unary methods (PascalCase, as in the .proto). */
export type UnaryMethodName<C> = {
  [K in keyof C & string]: K extends `${Uppercase<infer _F>}${string}`
    ? RequestOf<C[K]> extends never
      ? never
      : K
    : never;
}[keyof C & string];

export interface CallSettings {
  /** The caller's credential, forwarded as `authorization` (zero trust: every hop verifies it). */
  readonly authorization?: string;
  readonly deadlineMs?: number;
}

/**
 * Calls one unary method with a deadline (always), the caller's credential and the active trace
 * context in metadata, inside a CLIENT span when spans are recorded. Request and response types come from the generated
 * client. Idempotent reads are sent with `waitForReady` (see createClient for their retries).
 * Failures reject with RemoteCallError. Each finished call is reported to the process's
 * RpcObserver (see setRpcObserver) as `Service/Method` with its status code and duration.
 */
export function unaryCall<C extends Client, K extends UnaryMethodName<C>>(
  client: C,
  method: K,
  request: RequestOf<C[K]>,
  settings: CallSettings = {},
): Promise<ResponseOf<C[K]>> {
  const serviceName = (client.constructor as { serviceName?: string }).serviceName ?? 'grpc';
  const call = {
    client,
    serviceName,
    method: method as string,
    request,
    settings,
    startedAt: performance.now(),
  };
  // Without a tracer provider the span would be a no-op that still costs a context switch per
  // call; the active context (a caller's trace) is propagated all the same.
  if (!tracesRecorded()) return callOnce<ResponseOf<C[K]>>(call, undefined);
  return trace
    .getTracer('tap-grpc')
    .startActiveSpan(
      `grpc ${serviceName}/${method}`,
      { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } },
      (span) => callOnce<ResponseOf<C[K]>>(call, span),
    );
}

interface PendingCall {
  readonly client: Client;
  readonly serviceName: string;
  readonly method: string;
  readonly request: unknown;
  readonly settings: CallSettings;
  readonly startedAt: number;
}

function callOnce<R>(call: PendingCall, span: Span | undefined): Promise<R> {
  const { client, serviceName, method, settings } = call;
  const shortName = `${serviceName.slice(serviceName.lastIndexOf('.') + 1)}/${method}`;
  const metadata = new Metadata();
  if (settings.authorization) {
    try {
      metadata.set('authorization', settings.authorization);
    } catch {
      // Not printable ASCII, so no token of ours: refused here as the callee would refuse it,
      // instead of grpc-js's exception escaping the caller's request.
      span?.setStatus({ code: SpanStatusCode.ERROR, message: 'credential is not valid metadata' });
      span?.end();
      return Promise.reject(localCallError(status.UNAUTHENTICATED, 'the credential is malformed'));
    }
  }
  // A read waits (within its deadline) for a callee that is restarting instead of failing at
  // once; a write fails fast, so that its caller decides.
  if (isIdempotentRead(method)) metadata.setOptions({ waitForReady: true });
  injectTraceContext(metadata, context.active());
  injectRequestId(metadata);
  const options: CallOptions = {
    deadline: new Date(Date.now() + (settings.deadlineMs ?? DEFAULT_GRPC_DEADLINE_MS)),
  };
  const fn = (client as unknown as Record<string, unknown>)[method] as (
    request: unknown,
    metadata: Metadata,
    options: CallOptions,
    callback: (error: ServiceError | null, response?: unknown) => void,
  ) => ClientUnaryCall;
  return new Promise<R>((resolve, reject) => {
    fn.call(client, call.request, metadata, options, (error, response) => {
      reportRpc('client', shortName, error ? error.code : 0, call.startedAt);
      if (error) {
        span?.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
        span?.end();
        return reject(new RemoteCallError(error));
      }
      span?.end();
      return resolve(response as R);
    });
  });
}
