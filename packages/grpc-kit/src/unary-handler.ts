import {
  status,
  type Metadata,
  type sendUnaryData,
  type ServerUnaryCall,
  type StatusObject,
} from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { isDependencyUnavailable, isDomainError } from '@tap/errors';
import { errorMetadata, safeStatusMessage, STATUS_BY_KIND } from './error-mapping.js';
import { requestIdOf, withRequestId } from './request-id.js';
import { extractTraceContext } from './trace-metadata.js';
import { reportRpc } from './rpc-observer.js';
import { isRemoteUnavailable } from './remote-error.js';

export interface CallContext {
  readonly metadata: Metadata;
  /** Aborted when the caller cancels or its deadline passes. */
  readonly signal: AbortSignal;
  readonly method: string;
}

export interface HandlerLogger {
  error(object: object, message: string): void;
}

type Failure = Partial<StatusObject>;

/** Nothing in it comes from the request or the error: it can always be sent. */
const internal = (): Failure => ({ code: status.INTERNAL, details: 'internal error' });

/**
 * Adapts an async function to a grpc-js unary handler: the callback is called once (again only
 * with a plain INTERNAL, if grpc-js threw while sending the first answer);
 * a DomainError becomes its status with the stable code in trailing metadata; an unavailable
 * dependency (our drivers' connection errors, another service's UNAVAILABLE or DEADLINE_EXCEEDED)
 * becomes UNAVAILABLE; anything else is logged and answered INTERNAL with no detail (never a stack trace to the caller). The handler
 * runs in a SERVER span that continues the caller's trace. Each finished call is reported to the
 * process's RpcObserver (see setRpcObserver) with its status code and duration.
 *
 * Whatever the handler or the error mapping does (throw synchronously, reject with something
 * that cannot be encoded, make grpc-js throw while sending), the returned function never throws
 * and never leaves a rejected promise behind: a throw outside a handler's error path ends the
 * process (docs/security.md, process policy), so every path ends in an answer, INTERNAL at worst.
 */
export function unaryHandler<Req, Res>(
  method: string,
  logger: HandlerLogger,
  handle: (request: Req, ctx: CallContext) => Promise<Res>,
): (call: ServerUnaryCall<Req, Res>, callback: sendUnaryData<Res>) => void {
  const tracer = trace.getTracer('tap-grpc');
  const log: HandlerLogger = {
    error: (object, message) => {
      try {
        logger.error(object, message);
      } catch {
        // A logger that fails (an error it cannot serialise) must not take the answer with it.
      }
    },
  };
  return (call, rawCallback) => {
    const startedAt = performance.now();
    let answered = false;
    const answer = (error: Failure | null, value?: Res): void => {
      if (answered) return;
      answered = true;
      reportRpc('server', method, error ? (error.code ?? status.UNKNOWN) : status.OK, startedAt);
      try {
        rawCallback(error, value);
      } catch (sendError) {
        log.error({ err: sendError, method }, 'gRPC answer could not be sent; answering INTERNAL');
        try {
          rawCallback(internal());
        } catch {
          // The call is gone (cancelled, stream closed): there is nobody left to answer.
        }
      }
    };
    let span: Span | undefined;
    const fail = (error: unknown): void => {
      try {
        answer(failureOf(error, method, log, span));
      } catch (mappingError) {
        log.error({ err: mappingError, method }, 'gRPC error mapping failed; answering INTERNAL');
        answer(internal());
      } finally {
        endSpan(span);
      }
    };
    try {
      const controller = new AbortController();
      // grpc-js says 'cancelled' after every call, answered ones too: only a call still being
      // worked on is aborted (an abort builds a DOMException: a cost on every call otherwise).
      call.once('cancelled', () => {
        if (!answered) controller.abort();
      });
      const parent = extractTraceContext(call.metadata);
      span = tracer.startSpan(
        `grpc ${method}`,
        { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': method } },
        parent,
      );
      const ctx: CallContext = { metadata: call.metadata, signal: controller.signal, method };
      // `async` turns a handler's synchronous throw into a rejection like any other.
      context
        .with(trace.setSpan(parent, span), async () =>
          withRequestId(requestIdOf(call.metadata), () => handle(call.request, ctx)),
        )
        .then((response) => {
          endSpan(span);
          answer(null, response);
        }, fail)
        .catch(fail);
    } catch (error) {
      fail(error);
    }
  };
}

/** The status for a handler's failure; records it on the span. May throw only on a bug of ours. */
function failureOf(error: unknown, method: string, logger: HandlerLogger, span: Span | undefined): Failure {
  if (isDomainError(error)) {
    span?.setAttribute('tap.error_code', error.code);
    return {
      code: STATUS_BY_KIND[error.kind] ?? status.INTERNAL,
      details: safeStatusMessage(error.message),
      metadata: errorMetadata(error.code, error.details),
    };
  }
  // A service this handler called (entitlements for adoption's tier) that did not answer in time
  // is as unavailable as our own database: the caller retries, the gateway answers 503.
  if (isDependencyUnavailable(error) || isRemoteUnavailable(error)) {
    span?.setStatus({ code: SpanStatusCode.ERROR, message: 'dependency unavailable' });
    const details = 'a dependency is unavailable, retry later';
    return { code: status.UNAVAILABLE, details };
  }
  if (error instanceof Error) span?.recordException(error);
  span?.setStatus({ code: SpanStatusCode.ERROR });
  logger.error({ err: error, method }, 'unexpected error in gRPC handler');
  return internal();
}

function endSpan(span: Span | undefined): void {
  try {
    span?.end();
  } catch {
    // Telemetry must not change the outcome of a call.
  }
}
