import type { Metadata } from '@grpc/grpc-js';

/** The bearer token in incoming metadata, or undefined. */
export function bearerFromMetadata(metadata: Metadata): string | undefined {
  const value = metadata.get('authorization')[0];
  if (typeof value !== 'string') return undefined;
  const match = /^Bearer ([A-Za-z0-9\-_.~+/]+=*)$/.exec(value);
  return match?.[1];
}
