/**
 * Receives one report per finished unary call, for metrics. grpc-kit knows no metrics library:
 * the process installs an observer (e.g. @tap/telemetry's `rpcMetricsObserver`) in main.ts.
 * `method` is `Service/Method`, `code` the numeric gRPC status (0 = OK).
 */
export interface RpcObserver {
  serverCall(method: string, code: number, seconds: number): void;
  clientCall(method: string, code: number, seconds: number): void;
}

let observer: RpcObserver | undefined;

/** Installs the process's observer of gRPC calls (replacing any earlier one); `undefined` removes it. */
export function setRpcObserver(next: RpcObserver | undefined): void {
  observer = next;
}

/** Reports a finished call to the observer, if any; an observer's error never reaches the call. */
export function reportRpc(side: 'server' | 'client', method: string, code: number, startedAt: number): void {
  if (!observer) return;
  try {
    const seconds = (performance.now() - startedAt) / 1_000;
    if (side === 'server') observer.serverCall(method, code, seconds);
    else observer.clientCall(method, code, seconds);
  } catch {
    // Metrics must not change the outcome of a call.
  }
}
