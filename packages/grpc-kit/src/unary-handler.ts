import { status, type Metadata, type sendUnaryData, type ServerUnaryCall } from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { isDomainError } from '@tap/errors';
import { errorMetadata, STATUS_BY_KIND } from './error-mapping.js';
import { extractTraceContext } from './trace-metadata.js';
import { isDependencyUnavailable } from './dependency-unavailable.js';
import { reportRpc } from './rpc-observer.js';

export interface CallContext {
  readonly metadata: Metadata;
  /** Aborted when the caller cancels or its deadline passes. */
  readonly signal: AbortSignal;
  readonly method: string;
}

export interface HandlerLogger {
  error(object: object, message: string): void;
}

/**
 * Adapts an async function to a grpc-js unary handler: the callback is called exactly once;
 * a DomainError becomes its status with the stable code in trailing metadata; anything else is
 * logged and answered INTERNAL with no detail (never a stack trace to the caller). The handler
 * runs in a SERVER span that continues the caller's trace. Each finished call is reported to the
 * process's RpcObserver (see setRpcObserver) with its status code and duration.
 */
export function unaryHandler<Req, Res>(
  method: string,
  logger: HandlerLogger,
  handle: (request: Req, ctx: CallContext) => Promise<Res>,
): (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void {
  const tracer = trace.getTracer('tap-grpc');
  return (call, rawCallback) => {
    const startedAt = performance.now();
    const callback: sendUnaryData<Res> = (error, value) => {
      reportRpc('server', method, error ? (error.code ?? status.UNKNOWN) : status.OK, startedAt);
      rawCallback(error, value);
    };
    const controller = new AbortController();
    call.once('cancelled', () => controller.abort());
    const parent = extractTraceContext(call.metadata);
    const span = tracer.startSpan(
      `grpc ${method}`,
      { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } },
      parent,
    );
    const ctx: CallContext = { metadata: call.metadata, signal: controller.signal, method };
    context
      .with(trace.setSpan(parent, span), () => handle(call.request, ctx))
      .then(
        (response) => {
          span.end();
          callback(null, response);
        },
        (error: unknown) => {
          if (isDomainError(error)) {
            span.setAttribute('tap.error_code', error.code);
            span.end();
            return callback({
              code: STATUS_BY_KIND[error.kind],
              details: error.message,
              metadata: errorMetadata(error.code, error.details),
            });
          }
          if (isDependencyUnavailable(error)) {
            span.setStatus({ code: SpanStatusCode.ERROR, message: 'dependency unavailable' });
            span.end();
            return callback({
              code: status.UNAVAILABLE,
              details: 'a dependency is unavailable, retry later',
            });
          }
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
          logger.error({ err: error, method }, 'unexpected error in gRPC handler');
          return callback({ code: status.INTERNAL, details: 'internal error' });
        },
      );
  };
}
