import type { Metadata } from '@grpc/grpc-js';
import {
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';

const setter: TextMapSetter<Metadata> = {
  set: (metadata, key, value) => {
    // The trace state partly comes from callers (an incoming `tracestate` header). An entry that
    // is not legal metadata is dropped: losing a trace link is better than failing the call.
    try {
      metadata.set(key, value);
    } catch {
      // Left out.
    }
  },
};

const getter: TextMapGetter<Metadata> = {
  keys: (metadata) => Object.keys(metadata.getMap()),
  get: (metadata, key) => {
    const values = metadata.get(key).filter((v): v is string => typeof v === 'string');
    return values.length > 0 ? values : undefined;
  },
};

/** Writes the active W3C trace context (traceparent, tracestate) into outgoing metadata. */
export function injectTraceContext(metadata: Metadata, active: Context = context.active()): void {
  propagation.inject(active, metadata, setter);
}

/** Reads the caller's trace context from incoming metadata. */
export function extractTraceContext(metadata: Metadata): Context {
  return propagation.extract(context.active(), metadata, getter);
}
