import {
  ROOT_CONTEXT,
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { Match, type MsgHdrs } from '@nats-io/nats-core';

const setter: TextMapSetter<MsgHdrs> = {
  set(carrier, key, value) {
    carrier.set(key, value);
  },
};

// NATS header keys are case-sensitive; a hop that canonicalises `traceparent` to `Traceparent`
// must not cut the trace, so lookups ignore case.
const getter: TextMapGetter<MsgHdrs | undefined> = {
  keys(carrier) {
    return carrier?.keys() ?? [];
  },
  get(carrier, key) {
    const values = carrier?.values(key, Match.IgnoreCase) ?? [];
    if (values.length === 0) return undefined;
    return values.length === 1 ? values[0] : values;
  },
};

/** Writes the W3C trace context of `ctx` (the active one by default) into NATS headers. */
export function injectTraceContext(headers: MsgHdrs, ctx: Context = context.active()): void {
  propagation.inject(ctx, headers, setter);
}

/**
 * The producer's trace context carried by a message, on top of the ROOT context: the pull loop
 * runs in whatever context started it, and a message must never become the child of that.
 */
export function extractTraceContext(headers: MsgHdrs | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, headers, getter);
}
