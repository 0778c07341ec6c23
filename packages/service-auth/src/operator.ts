import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { authErrors } from './errors.js';

const OPERATOR_SCHEME = /^Operator (.+)$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * The operator credentials a service accepts: OPERATOR_TOKEN and, while it is being rotated,
 * OPERATOR_TOKEN_PREVIOUS (when set).
 */
export function operatorTokens(current: string, previous?: string): readonly string[] {
  return previous === undefined ? [current] : [current, previous];
}

/**
 * Checks the operator credential (`authorization: Operator <token>`) used by the operator CLI
 * against every accepted value (the current one and, during a rotation, the previous one).
 * Compared as SHA-256 digests in constant time, and always against every value, so neither
 * content, length nor which value matched leaks by timing.
 */
export function requireOperator(metadata: Metadata, accepted: string | readonly string[]): void {
  const header = metadata.get('authorization')[0];
  const presented = typeof header === 'string' ? OPERATOR_SCHEME.exec(header)?.[1] : undefined;
  const tokens = typeof accepted === 'string' ? [accepted] : accepted;
  const presentedDigest = digest(presented ?? '');
  let matched = false;
  for (const token of tokens) matched = timingSafeEqual(presentedDigest, digest(token)) || matched;
  if (!presented || !matched) throw authErrors.create('OPERATOR_ONLY');
}
