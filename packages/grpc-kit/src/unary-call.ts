import { Metadata, type CallOptions, type Client, type ClientUnaryCall, type ServiceError } from '@grpc/grpc-js';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { RemoteCallError } from './remote-error.js';
import { injectTraceContext } from './trace-metadata.js';

export const DEFAULT_GRPC_DEADLINE_MS = 2_000;

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: CallOptions,
  callback: (error: ServiceError | null, response?: Res) => void,
) => ClientUnaryCall;

export interface CallSettings {
  /** The caller's credential, forwarded as `authorization` (zero trust: every hop verifies it). */
  readonly authorization?: string;
  readonly deadlineMs?: number;
}

/**
 * Calls one unary method with a deadline (always), the caller's credential and the active trace
 * context in metadata, inside a CLIENT span. Failures reject with RemoteCallError.
 */
export function unaryCall<Req, Res>(
  client: Client,
  method: UnaryMethod<Req, Res>,
  name: string,
  request: Req,
  settings: CallSettings = {},
): Promise<Res> {
  const tracer = trace.getTracer('tap-grpc');
  return tracer.startActiveSpan(`grpc ${name}`, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': name } }, (span) => {
    const metadata = new Metadata();
    if (settings.authorization) metadata.set('authorization', settings.authorization);
    injectTraceContext(metadata, context.active());
    const deadline = new Date(Date.now() + (settings.deadlineMs ?? DEFAULT_GRPC_DEADLINE_MS));
    return new Promise<Res>((resolve, reject) => {
      method.call(client, request, metadata, { deadline }, (error, response) => {
        if (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
          span.end();
          return reject(new RemoteCallError(error));
        }
        span.end();
        return resolve(response as Res);
      });
    });
  });
}
