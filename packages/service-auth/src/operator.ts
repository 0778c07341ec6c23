import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { authErrors } from './errors.js';

const OPERATOR_SCHEME = /^Operator (.+)$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Checks the operator credential (`authorization: Operator <token>`) used by the operator CLI.
 * Compared as SHA-256 digests in constant time, so neither content nor length leaks by timing.
 */
export function requireOperator(metadata: Metadata, operatorToken: string): void {
  const header = metadata.get('authorization')[0];
  const presented = typeof header === 'string' ? OPERATOR_SCHEME.exec(header)?.[1] : undefined;
  if (!presented || !timingSafeEqual(digest(presented), digest(operatorToken))) {
    throw authErrors.create('OPERATOR_ONLY');
  }
}
