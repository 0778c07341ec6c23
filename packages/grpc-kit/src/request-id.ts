import { AsyncLocalStorage } from 'node:async_hooks';
import type { Metadata } from '@grpc/grpc-js';

/**
 * The id of the HTTP request a call serves, carried from the gateway through every gRPC call it
 * makes (metadata `x-request-id`) into the services' handlers, so that what a service records for
 * that request (an audit entry) names the id the caller got back in its `x-request-id` header.
 */
export const REQUEST_ID_METADATA = 'x-request-id';

/** Ids are ours (a UUID minted by the gateway); anything longer or odder is not carried. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const storage = new AsyncLocalStorage<string>();

/** Runs `fn` with `requestId` as the current request's id (the gateway per request, a handler per call). */
export function withRequestId<T>(requestId: string | undefined, fn: () => T): T {
  return requestId !== undefined && REQUEST_ID.test(requestId) ? storage.run(requestId, fn) : fn();
}

/** The id of the request being served, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore();
}

/** Writes the current request's id into outgoing metadata. */
export function injectRequestId(metadata: Metadata): void {
  const requestId = currentRequestId();
  if (requestId !== undefined) metadata.set(REQUEST_ID_METADATA, requestId);
}

/** The request id an incoming call carries, when it is one we would have sent. */
export function requestIdOf(metadata: Metadata): string | undefined {
  const value = metadata.get(REQUEST_ID_METADATA)[0];
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : undefined;
}
