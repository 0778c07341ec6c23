import { describe, expect, it } from '@jest/globals';
import { Metadata } from '@grpc/grpc-js';
import { currentRequestId, injectRequestId, requestIdOf, withRequestId } from './request-id.js';

describe('request ids', () => {
  it('carries the id of the request being served into outgoing metadata, across awaits', async () => {
    const metadata = new Metadata();
    await withRequestId('7d1f0c8e-2b7a-4a51-9a52-2d3c4b5a6f70', async () => {
      await new Promise((resolve) => setImmediate(resolve));
      injectRequestId(metadata);
    });
    expect(requestIdOf(metadata)).toBe('7d1f0c8e-2b7a-4a51-9a52-2d3c4b5a6f70');
    expect(currentRequestId()).toBeUndefined();
  });

  it('carries no id a caller could use to smuggle text', () => {
    const metadata = new Metadata();
    metadata.set('x-request-id', 'a b\u0000c'.replace('\u0000', ''));
    expect(requestIdOf(metadata)).toBeUndefined();
    withRequestId('x'.repeat(129), () => expect(currentRequestId()).toBeUndefined());
  });
});
